/// The pasteboards macOS's `pbcopy` and `pbpaste` take with `-pboard`: `general` (the default),
/// `ruler`, `find` and `font`, each the pasteboardd pasteboard of that name. Both tools read the
/// option the same way, so both read it here.
enum MacPasteboardName {
    /// Every name `-pboard` takes.
    static let all = ["general", "ruler", "find", "font"]

    /// The pasteboard `value` (the value of the option `spelled`) names, or `tool`'s usage
    /// failure listing the names it takes.
    static func named(_ value: String?, spelled: String, for tool: CompatibilityTool) throws(CompatibilityFailure) -> String {
        guard let value, all.contains(value) else {
            throw .usage(tool, "\(spelled) takes general, ruler, find or font, not '\(value ?? "")'")
        }
        return value
    }
}

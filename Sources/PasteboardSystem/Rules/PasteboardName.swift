/// Rules for pasteboard names: 1–64 characters of ASCII letters, digits, '.', '_' and '-'.
public enum PasteboardName {
    /// The pasteboard used when none is named.
    public static let general = "general"
    /// The pasteboard the desktop bridge mirrors the primary selection on (the mouse
    /// selection, pasted with the middle button); in memory only unless `durable-primary`.
    public static let primary = "primary"

    /// Nil when `name` is valid, else the reason it is not.
    public static func validationFailure(_ name: String) -> String? {
        if name.isEmpty { return "pasteboard name is empty" }
        if name.utf8.count > 64 { return "pasteboard name '\(name.prefix(64))…' is longer than 64 characters" }
        let valid = name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
        return valid ? nil : "pasteboard name '\(name)' may contain only letters, digits, '.', '_' and '-'"
    }
}

import PasteboardCLI
import PasteboardDesktopTypes
import PasteboardProtocol
import PasteboardTypes

/// How the names the originals take for types (MIME types, X11 targets such as `UTF8_STRING`,
/// wl-paste's generic `text` and `image`) map onto type identifiers, and how an item's
/// representations are listed under the names the desktop bridge offers them by.
enum CompatibilityTypes {
    /// What a paste accepts when the original would ask for text (xclip's UTF8_STRING, xsel,
    /// pbpaste): plain text, else any text.
    static let text: [TypeIdentifier] = [.utf8PlainText, .plainText, .text]

    /// What a paste accepts when the original takes whatever the owner has, text first
    /// (wl-paste without `-t`; xclip `-o` without `-t`, whose request an xclip owner answers
    /// with its data whatever it is): text, else the item's first representation.
    static let textElseAnything: [TypeIdentifier] = text + [.data, .item]

    /// The type of a copy for `name` (`-t`): an X11 name of plain text is UTF-8 plain text, a
    /// MIME type or declared identifier resolves through the registry; anything else is refused.
    static func copyType(_ name: String) throws(CLIError) -> TypeIdentifier {
        if DesktopTypeMapping.isPlainTextName(name) || name == "text" { return .utf8PlainText }
        return try TypeArguments.copyType(name, registry: TypeArguments.registry().registry)
    }

    /// The accepted types for a paste of `name`: an X11 name of plain text is plain text;
    /// `text`, `image`, MIME types and identifiers as `pb paste -t` reads them.
    static func pasteTypes(_ name: String) throws(CLIError) -> [TypeIdentifier] {
        if DesktopTypeMapping.isPlainTextName(name) { return text }
        if name == "text" { return text }
        return try TypeArguments.pasteTypes([name], registry: TypeArguments.registry().registry)
    }

    /// Item `item`'s representations under the names the desktop bridge offers them by (MIME
    /// types, and for UTF-8 text `UTF8_STRING`, `STRING` and `TEXT`), best first, each once;
    /// a sensitive item adds `x-kde-passwordManagerHint`, as `wl-copy --sensitive` offers it.
    static func offeredNames(of item: ItemInfo) -> [String] {
        let mapping = DesktopTypeMapping(registry: TypeArguments.registry().registry)
        var names: [String] = []
        for representation in item.representations {
            for name in mapping.targets(for: TypeIdentifier(rawValue: representation.type)) where !names.contains(name) {
                names.append(name)
            }
        }
        if item.isSensitive, !names.contains(DesktopTypeMapping.passwordManagerHintTarget) {
            names.append(DesktopTypeMapping.passwordManagerHintTarget)
        }
        return names
    }

    /// Item `item`'s representations under the names wl-copy offers them by, in its order
    /// (`wl-paste -l`): each representation's MIME types, and after those of text, wl-copy's
    /// generic names of plain text (`text/plain`, `text/plain;charset=utf-8`, `TEXT`, `STRING`,
    /// `UTF8_STRING`); each name once. So the list a `wl-copy` here leaves reads as the one
    /// Debian's wl-copy 2.1.0 offers for the same copy. A sensitive item adds
    /// `x-kde-passwordManagerHint` last.
    static func wlCopyNames(of item: ItemInfo) -> [String] {
        let mapping = DesktopTypeMapping(registry: TypeArguments.registry().registry)
        var names: [String] = []
        func add(_ name: String) { if !names.contains(name) { names.append(name) } }
        for representation in item.representations {
            let targets = mapping.targets(for: TypeIdentifier(rawValue: representation.type))
            let own = targets.filter { !genericTextNames.contains($0) && !DesktopTypeMapping.isPlainTextName($0) }
            own.forEach(add)
            if own.count < targets.count || own.contains(where: isWlCopyText) { genericTextNames.forEach(add) }
        }
        if item.isSensitive { add(DesktopTypeMapping.passwordManagerHintTarget) }
        return names
    }

    /// What wl-copy offers besides the type of text, in its order (wl-copy.c, 2.1.0).
    static let genericTextNames = ["text/plain", "text/plain;charset=utf-8", "TEXT", "STRING", "UTF8_STRING"]

    /// wl-clipboard's test of a textual MIME type (`mime_type_is_text`): `text/*`, the X11
    /// names, JSON, scripts, XML, YAML, PGP keys (and the Publisher type xdg-mime gives `.pub`).
    static func isWlCopyText(_ mime: String) -> Bool {
        mime.hasPrefix("text/") || ["TEXT", "STRING", "UTF8_STRING"].contains(mime) || mime.contains("json")
            || mime.hasSuffix("script") || mime.hasSuffix("xml") || mime.hasSuffix("yaml")
            || mime.contains("application/vnd.ms-publisher") || mime.hasSuffix("pgp-keys")
    }

    /// Whether a pasted representation is text (wl-paste then appends a newline).
    static func isText(_ header: RepresentationHeader) -> Bool {
        if let mime = header.mimeType { return mime.hasPrefix("text/") }
        return header.type.hasPrefix("public.") && header.type.hasSuffix("-text") || header.type == TypeIdentifier.text.rawValue
    }
}

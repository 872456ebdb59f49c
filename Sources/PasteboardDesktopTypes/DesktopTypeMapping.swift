public import PasteboardTypes

/// How the desktop's clipboard offers map to type identifiers and back: the X11 selection
/// targets and Wayland MIME types an owner offers become an item's representations, and a
/// pasteboard item's representations become the targets the bridge offers the desktop.
///
/// Desktop owners offer one thing under many names (`UTF8_STRING`, `STRING`, `TEXT`,
/// `text/plain;charset=utf-8` for one text) and mix in protocol plumbing (`TARGETS`,
/// `TIMESTAMP`), so offers are not representations one for one: plumbing is dropped, the
/// names of plain text collapse into one `public.utf8-plain-text` representation fetched by
/// its best name, and every other MIME type is resolved through the registry, so declared
/// types, shared-mime-info aliases and dynamic types apply as they do to `pb copy -t`.
/// pasteboard-types(5), DESKTOP CLIPBOARD, documents the table; `pb types --desktop` prints it.
public struct DesktopTypeMapping: Sendable {
    /// The registry MIME types are resolved with.
    public let registry: TypeRegistry

    /// A mapping resolving MIME types with `registry`.
    public init(registry: TypeRegistry) {
        self.registry = registry
    }

    /// X11 targets that describe the selection or drive the transfer and are never data: ICCCM's
    /// `TARGETS`, `TIMESTAMP`, `MULTIPLE`, `INCR`, `DELETE`, `INSERT_SELECTION`,
    /// `INSERT_PROPERTY`, `SAVE_TARGETS`, `ATOM_PAIR`, `LENGTH`, and the obsolete ICCCM
    /// identity targets (`HOST_NAME`, `USER`, `CLIENT_WINDOW`, `PROCESS`, `TASK`, `OWNER_OS`,
    /// `NAME`, `FILE_NAME`, `CHARACTER_POSITION`, `LINE_NUMBER`, `COLUMN_NUMBER`, `SPAN`,
    /// `LIST_LENGTH`, `IP_ADDRESS`, `DRAWABLE`, `PIXMAP`, `BITMAP`, `COLORMAP`).
    public static let plumbingTargets: Set<String> = [
        "TARGETS", "TIMESTAMP", "MULTIPLE", "INCR", "DELETE", "INSERT_SELECTION", "INSERT_PROPERTY",
        "SAVE_TARGETS", "ATOM_PAIR", "LENGTH", "HOST_NAME", "USER", "CLIENT_WINDOW", "PROCESS", "TASK",
        "OWNER_OS", "NAME", "FILE_NAME", "CHARACTER_POSITION", "LINE_NUMBER", "COLUMN_NUMBER", "SPAN",
        "LIST_LENGTH", "IP_ADDRESS", "DRAWABLE", "PIXMAP", "BITMAP", "COLORMAP",
    ]

    /// The names of plain text, best first: the one a text representation is fetched by when
    /// an owner offers several. UTF-8 names first; `STRING` is ISO 8859-1 and `TEXT` and
    /// `COMPOUND_TEXT` are whatever the owner chooses, so they are converted from Latin-1 and
    /// used only when nothing better is offered.
    public static let plainTextTargets: [(target: String, conversion: DesktopRepresentation.Conversion)] = [
        ("UTF8_STRING", .none),
        ("text/plain;charset=utf-8", .none),
        ("text/plain", .none),
        ("STRING", .latin1ToUTF8),
        ("TEXT", .latin1ToUTF8),
        ("COMPOUND_TEXT", .latin1ToUTF8),
    ]

    /// The macOS convention for a secret, offered by some Linux password managers under the same name.
    public static let concealedTarget = "org.nspasteboard.ConcealedType"

    /// KDE's marker of a secret (KWallet, KeePassXC, Klipper): a bare MIME type whose value
    /// `secret` (`secretHintValue`) asks clipboard managers to keep the copy out of history.
    public static let passwordManagerHintTarget = "x-kde-passwordManagerHint"

    /// The type `passwordManagerHintTarget` is declared as (the built-in declarations give the
    /// MIME type this identifier, as the daemon's sensitivity rule knows it).
    public static let passwordManagerHintType = TypeIdentifier("org.kde.password-manager-hint")

    /// The value of `passwordManagerHintTarget` that marks a secret.
    public static let secretHintValue = "secret"

    /// Whether `target` is KDE's hint (any case, as the daemon matches it).
    public static func isPasswordManagerHint(_ target: String) -> Bool {
        target.utf8.count == passwordManagerHintTarget.utf8.count && target.lowercased() == passwordManagerHintTarget.lowercased()
    }

    /// Whether `value`, a hint's bytes, is `secret` (surrounding ASCII whitespace ignored; a
    /// value of 64 bytes or more is none, so a huge one is never decoded).
    public static func isSecretHintValue(_ value: [UInt8]) -> Bool {
        guard value.count < 64 else { return false }
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || (0x09...0x0D).contains($0) }
        guard let first = value.firstIndex(where: { !isSpace($0) }), let last = value.lastIndex(where: { !isSpace($0) }) else { return false }
        return Array(value[first...last]) == Array(secretHintValue.utf8)
    }

    /// The representations a desktop owner's `offered` targets become, one per type
    /// identifier, plumbing and unknown X11 names dropped, in the owner's order within each
    /// `ImportRank`: declared types first (images, files, plain text, an app's declared types),
    /// then rich text (HTML, RTF), then types the registry does not know (a toolkit's private
    /// formats: GTK's `GTKTEXTBUFFERCONTENTS-0001`, Firefox's `text/_moz_htmlcontext`, Qt's
    /// `application/x-qt-…`, Chromium's `chromium/x-…`), so that a plain `pb paste` of a copy
    /// in any application prints its text, and its captured text still pastes after the
    /// application quit.
    public func representations(forOffered offered: [String]) -> DesktopOffer {
        let offer = representationsInOwnersOrder(forOffered: offered)
        let ranked = offer.representations.enumerated().sorted { left, right in
            let (a, b) = (importRank(of: left.element.type), importRank(of: right.element.type))
            return a != b ? a < b : left.offset < right.offset
        }
        return DesktopOffer(representations: ranked.map(\.element), ignored: offer.ignored)
    }

    /// Where a desktop copy's representation of `type` goes in its item (lower first).
    public enum ImportRank: Int, Comparable, Sendable {
        /// A type declared in the registry (or the bridge's own: text, files, URLs, secrets).
        case declared
        /// Declared text other than plain text (`public.html`, `public.rtf`): applications
        /// list it first as their richest, but a terminal wants the plain text.
        case richText
        /// A dynamic type: a MIME type or X11 name nothing declares.
        case undeclared

        public static func < (left: ImportRank, right: ImportRank) -> Bool { left.rawValue < right.rawValue }
    }

    /// The rank of a desktop representation of `type`.
    public func importRank(of type: TypeIdentifier) -> ImportRank {
        if [.utf8PlainText, .fileURL, .url].contains(type) || type.rawValue == Self.concealedTarget { return .declared }
        guard type.dynamicMIMEType == nil, registry.declaration(for: type) != nil else { return .undeclared }
        if registry.conforms(type, to: .text), !registry.conforms(type, to: .plainText) { return .richText }
        return .declared
    }

    /// The representations of `offered` in the owner's order.
    private func representationsInOwnersOrder(forOffered offered: [String]) -> DesktopOffer {
        var representations: [DesktopRepresentation] = []
        var seen = Set<TypeIdentifier>()
        var ignored: [String] = []
        let text = bestPlainText(in: offered)
        let isFileCopy = offered.contains { MIMEType.base(of: $0) == "x-special/gnome-copied-files" }
        for target in offered {
            if Self.plumbingTargets.contains(target) { continue }
            let representation: DesktopRepresentation?
            if Self.isPlainTextName(target) {
                representation = text.map { DesktopRepresentation(type: .utf8PlainText, target: $0.target, conversion: $0.conversion) }
            } else if target == Self.concealedTarget {
                representation = DesktopRepresentation(type: TypeIdentifier(rawValue: Self.concealedTarget), target: target, conversion: .none)
            } else if MIMEType.base(of: target) == "x-special/gnome-copied-files" {
                representation = DesktopRepresentation(type: .fileURL, target: target, conversion: .gnomeCopiedFilesToURIList)
            } else if MIMEType.base(of: target) == "text/uri-list" {
                // A file manager's copy offers its files as a URI list beside its own list: those are file URLs.
                representation = DesktopRepresentation(type: isFileCopy ? .fileURL : .url, target: target, conversion: .none)
            } else if let type = registry.resolve(target), target.contains("/") || MIMEType.isBareDesktopName(target) {
                representation = DesktopRepresentation(type: type, target: target, conversion: .none)
            } else {
                representation = nil
            }
            guard let representation else {
                ignored.append(target)
                continue
            }
            if seen.insert(representation.type).inserted { representations.append(representation) }
        }
        return DesktopOffer(representations: representations, ignored: ignored)
    }

    /// The targets the bridge offers the desktop for a representation of `type`, best first:
    /// its MIME types, then for UTF-8 text the conventional X11 names (`UTF8_STRING`, `STRING`,
    /// `TEXT`), which Wayland clients offer too, for Xwayland's sake. A type with no MIME type
    /// (`public.data` of a `pb copy` of untyped binary) is still bytes: it is offered as
    /// `untypedBytesTarget`, on X11 and Wayland alike, rather than not at all.
    public func targets(for type: TypeIdentifier) -> [String] {
        var targets: [String] = []
        func add(_ target: String) { if !targets.contains(target) { targets.append(target) } }
        if type == .utf8PlainText {
            ["text/plain;charset=utf-8", "text/plain", "UTF8_STRING", "STRING", "TEXT"].forEach(add)
        } else if type == .fileURL {
            ["text/uri-list", "x-special/gnome-copied-files"].forEach(add)
        } else if type.rawValue == Self.concealedTarget {
            add(Self.concealedTarget)
        }
        if let declaration = registry.declaration(for: type) {
            declaration.mimeTypes.forEach(add)
        } else if let mime = type.dynamicMIMEType {
            add(mime)
        }
        if targets.isEmpty { add(Self.untypedBytesTarget) }
        return targets
    }

    /// What a representation whose type has no MIME type is offered to the desktop as:
    /// `application/octet-stream`, the MIME type of bytes of no known kind.
    public static let untypedBytesTarget = "application/octet-stream"

    /// Whether `target` is one of the names of plain text (`plainTextTargets`; charset names
    /// matched without regard to case or spaces).
    public static func isPlainTextName(_ target: String) -> Bool {
        plainTextTargets.contains { $0.target == target } || MIMEType.normalized(target) == "text/plain;charset=utf-8"
    }

    /// The best name of plain text among `offered`, with how its bytes become UTF-8.
    private func bestPlainText(in offered: [String]) -> (target: String, conversion: DesktopRepresentation.Conversion)? {
        for candidate in Self.plainTextTargets {
            if let match = offered.first(where: { $0 == candidate.target || MIMEType.normalized($0) == candidate.target }) {
                return (match, candidate.conversion)
            }
        }
        return nil
    }
}

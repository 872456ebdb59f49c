public import PasteboardDesktopTypes
public import PasteboardTypes

/// What the bridge offers the desktop for a pasteboard item: the targets (X11) or MIME types
/// (Wayland), in the item's order of fidelity, and where each one's bytes come from. Pure code,
/// decided from the item's description alone, so it is testable without a display.
///
/// Each representation offers its MIME types and, for UTF-8 text, the conventional X11 names
/// (`DesktopTypeMapping.targets(for:)`); a name offered by a better representation is not
/// offered again. A sensitive item also offers `x-kde-passwordManagerHint` = `secret`, so
/// clipboard managers (Klipper, CopyQ, GPaste) keep it out of their history.
public struct DesktopExportPlan: Sendable, Equatable {
    /// One offered target.
    public struct Target: Sendable, Equatable {
        /// Its name: a MIME type or an X11 target.
        public var name: String
        /// Where its bytes come from.
        public var source: Source

        public init(name: String, source: Source) {
            self.name = name
            self.source = source
        }
    }

    /// Where a target's bytes come from.
    public enum Source: Sendable, Equatable {
        /// Loaded from the daemon when a requestor asks (a lazy source produces it only then),
        /// converted on the way.
        case representation(TypeIdentifier, ExportConversion)
        /// Bytes the bridge itself answers with (the password-manager hint).
        case fixed([UInt8])
    }

    /// The change count of the pasteboard content offered: a request served after the
    /// pasteboard changed is refused rather than answered with the new content.
    public let changeCount: Int
    /// The targets, best first.
    public let targets: [Target]

    /// The target KDE's clipboard and others read to skip a secret (the daemon's
    /// `SensitivityMarker` knows it by the same name).
    public static let passwordManagerHintTarget = "x-kde-passwordManagerHint"
    /// The hint's value that marks a secret.
    public static let passwordManagerHintSecret: [UInt8] = Array("secret".utf8)

    /// The plan for an item whose representations have `types` (best first).
    /// - Parameter reservedNames: names never offered as data (the owner answers them itself:
    ///   X11's `TARGETS`, `TIMESTAMP`, `MULTIPLE`, …).
    public init(
        types: [TypeIdentifier], isSensitive: Bool, changeCount: Int, mapping: DesktopTypeMapping,
        reservedNames: Set<String> = DesktopTypeMapping.plumbingTargets
    ) {
        var targets: [Target] = []
        var names: Set<String> = []
        func add(_ name: String, _ source: Source) {
            guard !name.isEmpty, !reservedNames.contains(name), names.insert(name).inserted else { return }
            targets.append(Target(name: name, source: source))
        }
        for type in types {
            for name in mapping.targets(for: type) {
                add(name, .representation(type, Self.conversion(to: name, from: type)))
            }
        }
        // An item with text but no UTF-8 plain text (HTML only, a `.txt` file of unknown
        // charset) still pastes in plain-text readers (xclip -o, a terminal): its best text
        // representation is offered under the plain-text names too, as the text it is.
        if !types.contains(.utf8PlainText), let text = types.first(where: { mapping.registry.conforms($0, to: .text) }) {
            for name in Self.plainTextNames {
                add(name, .representation(text, Self.conversion(to: name, from: text)))
            }
        }
        if isSensitive {
            // A hint the item carries itself is offered as it is (it was added above); otherwise ours.
            add(Self.passwordManagerHintTarget, .fixed(Self.passwordManagerHintSecret))
        }
        self.changeCount = changeCount
        self.targets = targets
    }

    /// The offered names, best first.
    public var targetNames: [String] { targets.map(\.name) }

    /// The target called `name`, if offered.
    public func target(named name: String) -> Target? {
        targets.first { $0.name == name }
    }

    /// The names plain-text readers ask for, offered for an item's best text when it has no
    /// UTF-8 plain text of its own.
    static let plainTextNames = ["text/plain;charset=utf-8", "UTF8_STRING", "STRING", "TEXT"]

    /// How a representation of `type` becomes the bytes of the target `name`: `STRING` and
    /// `TEXT` are Latin-1 whatever the text's type.
    static func conversion(to name: String, from type: TypeIdentifier) -> ExportConversion {
        if name == "STRING" || name == "TEXT" { return .utf8ToLatin1 }
        if type == .fileURL, name == "x-special/gnome-copied-files" { return .uriListToGnomeCopiedFiles }
        return .none
    }
}

public import PasteboardTypes

/// One representation of a desktop owner's offer: the type identifier it becomes, the target
/// (X11) or MIME type (Wayland) its bytes are fetched by, and how those bytes are converted.
public struct DesktopRepresentation: Sendable, Equatable {
    /// How fetched bytes become the representation's bytes.
    public enum Conversion: Sendable, Equatable {
        /// As they come.
        case none
        /// ISO 8859-1 (`STRING`; `TEXT` and `COMPOUND_TEXT` read as such) to UTF-8.
        case latin1ToUTF8
        /// GNOME's `x-special/gnome-copied-files` (`copy` or `cut`, then one URI per line) to a
        /// `text/uri-list` (the URIs, CRLF-terminated).
        case gnomeCopiedFilesToURIList
    }

    /// The type identifier the representation has on the pasteboard.
    public var type: TypeIdentifier
    /// The name the owner offered it by, and the bridge fetches it by.
    public var target: String
    /// How the fetched bytes are converted.
    public var conversion: Conversion

    public init(type: TypeIdentifier, target: String, conversion: Conversion) {
        self.type = type
        self.target = target
        self.conversion = conversion
    }
}

/// What a desktop owner's offer becomes: its representations in the owner's order, and the
/// offered names that are none (unknown X11 names; plumbing such as `TARGETS` is not listed).
public struct DesktopOffer: Sendable, Equatable {
    /// The representations, in the owner's order, one per type identifier.
    public var representations: [DesktopRepresentation]
    /// Offered names that map to no type (X11 names the registry does not know).
    public var ignored: [String]

    public init(representations: [DesktopRepresentation], ignored: [String]) {
        self.representations = representations
        self.ignored = ignored
    }

    /// True when the owner marks the offer a secret by its names alone
    /// (`org.nspasteboard.ConcealedType`); a `x-kde-passwordManagerHint` must be fetched,
    /// since only its value `secret` marks one (see `isConcealed(passwordManagerHint:)`).
    public var isConcealed: Bool {
        representations.contains { $0.target == DesktopTypeMapping.concealedTarget }
    }

    /// KDE's `x-kde-passwordManagerHint` among the representations, if the owner offers it: its
    /// value (read from the owner) says whether the offer is a secret.
    public var passwordManagerHint: DesktopRepresentation? {
        representations.first { DesktopTypeMapping.isPasswordManagerHint($0.target) }
    }

    /// Whether the offer is a secret, given `value`, the bytes read for its
    /// `x-kde-passwordManagerHint`: by its names (`isConcealed`), or by a hint whose value is
    /// `secret` (surrounding whitespace ignored, as KeePassXC and Klipper write it). A hint whose
    /// value could not be read (`nil`) counts as secret: a secret must not be written down while
    /// its marker is still unknown (the daemon counts an unread hint the same way).
    public func isConcealed(passwordManagerHint value: [UInt8]?) -> Bool {
        if isConcealed { return true }
        guard passwordManagerHint != nil else { return false }
        guard let value else { return true }
        return DesktopTypeMapping.isSecretHintValue(value)
    }
}

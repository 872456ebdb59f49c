public import PasteboardTypes

/// The representations by which a copy marks itself secret without the `sensitive` flag, as
/// password managers write them on the desktop clipboards; the daemon treats such an item as it
/// treats a `sensitive` one (memory only, no history, no content in `watch`).
public enum SensitivityMarker {
    /// nspasteboard.org's `org.nspasteboard.ConcealedType`: its presence alone marks the item.
    public static let concealedType = TypeIdentifier("org.nspasteboard.ConcealedType")

    /// KDE's hint, MIME type `x-kde-passwordManagerHint` (KWallet, KeePassXC, Klipper): it
    /// marks the item when its value is `secret`.
    public static let kdePasswordManagerHint = TypeIdentifier("org.kde.password-manager-hint")

    /// The value of ``kdePasswordManagerHint`` that marks an item secret.
    public static let secretHint = "secret"

    /// Whether a representation of `type` (as a client wrote it, or resolved) with the bytes
    /// `value` marks its item sensitive. `value` is nil when the bytes are not at hand (a
    /// promise, a file): a KDE hint then counts as secret, since a secret must not be written
    /// down while its marker is still being asked for.
    public static func marks(_ type: String, value: [UInt8]?) -> Bool {
        if isConcealedType(type) { return true }
        guard isKDEHint(type) else { return false }
        guard let value else { return true }
        return value.count < 64 && String(decoding: value, as: UTF8.self).trimmingASCIIWhitespace() == secretHint
    }

    /// Whether `type` is nspasteboard.org's concealed type (any case).
    public static func isConcealedType(_ type: String) -> Bool {
        type.caseInsensitiveEquals(concealedType.rawValue)
    }

    /// Whether `type` is KDE's hint, by its identifier or its MIME type (any case).
    public static func isKDEHint(_ type: String) -> Bool {
        type.caseInsensitiveEquals(kdePasswordManagerHint.rawValue) || type.caseInsensitiveEquals(kdeHintMIMEType)
    }

    /// The hint's MIME type as KDE writes it.
    public static let kdeHintMIMEType = "x-kde-passwordManagerHint"
}

private extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && lowercased() == other.lowercased()
    }
}

import PasteboardTypes

/// Why converting a ``Transferable`` value failed.
public enum TransferError: Error, Sendable, CustomStringConvertible {
    /// No import-capable representation accepts `contentType`; `accepted` lists the types that are
    /// accepted (along with types conforming to them).
    case noImportableRepresentation(contentType: TypeIdentifier, accepted: [TypeIdentifier])
    /// The content was declared as `contentType` but its bytes could not be decoded.
    case decodingFailed(contentType: TypeIdentifier, reason: String)
    /// A representation reached through a proxy does not apply to this value: its exporting
    /// condition, checked once the proxy's conversion has run, is false.
    case notExportable(contentType: TypeIdentifier)
    /// Reading or writing a file needed for the conversion failed.
    case fileOperationFailed(path: String, reason: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .noImportableRepresentation(let type, let accepted) where accepted.isEmpty:
            "cannot import \(type): this type has no import-capable representation"
        case .noImportableRepresentation(let type, let accepted):
            "cannot import \(type): accepted types are \(accepted.map(\.rawValue).joined(separator: ", ")) "
                + "(or types conforming to them)"
        case .decodingFailed(let type, let reason): "cannot decode \(type): \(reason)"
        case .notExportable(let type): "this value cannot be exported as \(type)"
        case .fileOperationFailed(let path, let reason): "\(path): \(reason)"
        }
    }
}

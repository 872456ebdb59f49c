import NIOCore
import PasteboardProtocol
import PasteboardTypes

/// One representation of an item as the daemon holds it.
///
/// Eager data is kept as the chunks it arrived in, so storing and serving never copies or
/// reallocates bulk bytes. (Lazy promises, served by the live source, are a later content kind.)
public struct StoredRepresentation: Sendable {
    /// Where the bytes come from.
    public enum Content: Sendable {
        /// Bytes the daemon holds, in arrival order.
        case data([ByteBuffer])
    }

    /// The representation's type.
    public var type: TypeIdentifier
    /// Its bytes, or how to get them.
    public var content: Content
    /// Byte count when known.
    public var size: Int?

    /// An eager representation holding `chunks`.
    public init(type: TypeIdentifier, chunks: [ByteBuffer]) {
        self.type = type
        self.content = .data(chunks)
        self.size = chunks.reduce(0) { $0 + $1.readableBytes }
    }
}

/// One item on a pasteboard: representations in fidelity order, best first.
public struct StoredItem: Sendable {
    /// Representations, best first; never empty.
    public var representations: [StoredRepresentation]
    /// A file name a destination may use.
    public var suggestedName: String?

    /// Creates an item.
    public init(representations: [StoredRepresentation], suggestedName: String? = nil) {
        self.representations = representations
        self.suggestedName = suggestedName
    }

    /// The wire description of this item, with MIME types from `registry`.
    public func info(registry: TypeRegistry) -> ItemInfo {
        ItemInfo(
            representations: representations.map {
                RepresentationInfo(type: $0.type.rawValue, size: $0.size, mimeType: registry.preferredMIMEType(for: $0.type))
            },
            suggestedName: suggestedName
        )
    }
}

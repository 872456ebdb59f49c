import NIOCore
import PasteboardTypes

/// An item to put on a pasteboard: representations in fidelity order, best first.
public struct WriteItem: Sendable {
    /// One representation: its type and its bytes.
    public struct Representation: Sendable {
        /// The representation's type.
        public var type: TypeIdentifier
        /// Its bytes, as chunks (never copied into one buffer).
        public var chunks: [ByteBuffer]

        /// A representation holding `chunks`.
        public init(type: TypeIdentifier, chunks: [ByteBuffer]) {
            self.type = type
            self.chunks = chunks
        }

        /// A representation holding `bytes`.
        public init(type: TypeIdentifier, bytes: some Sequence<UInt8>) {
            self.init(type: type, chunks: [ByteBuffer(bytes: bytes)])
        }

        /// The byte count.
        public var size: Int { chunks.reduce(0) { $0 + $1.readableBytes } }
    }

    /// Representations, best first; at least one.
    public var representations: [Representation]
    /// A file name a destination may use when saving the item.
    public var suggestedName: String?

    /// Creates an item.
    public init(representations: [Representation], suggestedName: String? = nil) {
        self.representations = representations
        self.suggestedName = suggestedName
    }
}

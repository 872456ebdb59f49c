public import NIOCore

/// One unit on the wire: a header (length, kind, flags, request id) and a payload.
///
/// Control messages carry a UTF-8 JSON object; data frames carry raw bulk bytes, never encoded.
public struct Frame: Sendable, Equatable {
    /// What the payload is.
    public enum Kind: UInt8, Sendable {
        /// A control message: one UTF-8 JSON object (see `Message`).
        case message = 1
        /// A chunk of bulk data belonging to the request's data stream.
        case data = 2
    }

    /// Bits of the flags byte.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// On a data frame: the last chunk of the current representation's bytes.
        public static let end = Flags(rawValue: 0x01)
        /// Bits a v1 peer must send as zero.
        public static let reserved = Flags(rawValue: 0xFE)
    }

    public var kind: Kind
    public var flags: Flags
    /// The request this frame belongs to; 0 is the connection itself (handshake, fatal errors).
    public var requestID: UInt32
    public var payload: ByteBuffer

    /// Creates a frame.
    public init(kind: Kind, flags: Flags = [], requestID: UInt32, payload: ByteBuffer) {
        self.kind = kind
        self.flags = flags
        self.requestID = requestID
        self.payload = payload
    }

    /// A data frame carrying `payload`, marked `end` when it is the representation's last chunk.
    public static func data(_ payload: ByteBuffer, requestID: UInt32, end: Bool = false) -> Frame {
        Frame(kind: .data, flags: end ? .end : [], requestID: requestID, payload: payload)
    }

    /// True for a data frame that ends a representation.
    public var isEnd: Bool { flags.contains(.end) }

    /// The value of the length field for this frame.
    public var length: Int { ProtocolLimits.headerLength + payload.readableBytes }
}

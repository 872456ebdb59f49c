/// A Wayland message: a request (client to compositor) or an event (compositor to client).
///
/// On the wire: the object id (u32), then a u32 whose high 16 bits are the message size in bytes
/// (header included) and low 16 bits the opcode, both words in host byte order (the socket is
/// local), then the arguments, each padded to 4 bytes.
public struct WireMessage: Equatable, Sendable {
    public var objectID: UInt32
    public var opcode: UInt16
    public var arguments: [WireArgument]

    public init(objectID: UInt32, opcode: UInt16, arguments: [WireArgument] = []) {
        self.objectID = objectID
        self.opcode = opcode
        self.arguments = arguments
    }

    /// The descriptors of the fd arguments, in order: what travels beside the bytes.
    public var descriptors: [Int32] {
        arguments.compactMap { if case .fd(let fd) = $0 { fd } else { nil } }
    }
}

/// The limits of the wire format.
public enum WireLimits {
    /// The header: object id and size/opcode word.
    public static let headerSize = 8
    /// The size field is 16 bits; sizes are multiples of 4, so the largest message is 65532 bytes.
    public static let maxMessageSize = 65532
}

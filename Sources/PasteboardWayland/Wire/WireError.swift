/// A message that does not follow the wire format, or cannot be encoded in it. The compositor
/// is another process: anything it sends is checked, and a malformed message ends the
/// connection with one of these instead of a crash.
public enum WireError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The header's size is below the header's own 8 bytes, not a multiple of 4, or beyond the limit.
    case invalidMessageSize(objectID: UInt32, opcode: UInt16, size: Int)
    /// An argument runs past the end of its message.
    case truncatedArgument(objectID: UInt32, opcode: UInt16, argument: Int)
    /// The message has bytes left after its last argument.
    case trailingBytes(objectID: UInt32, opcode: UInt16, count: Int)
    /// A string that lacks its NUL terminator, or is not UTF-8.
    case invalidString(objectID: UInt32, opcode: UInt16, argument: Int)
    /// A message with an fd argument arrived without a descriptor for it.
    case missingDescriptor(objectID: UInt32, opcode: UInt16)
    /// A message we send would exceed the size field (a string or array too long).
    case messageTooLarge(objectID: UInt32, opcode: UInt16, size: Int)
    /// An argument value does not match the type the signature gives it.
    case argumentMismatch(objectID: UInt32, opcode: UInt16, argument: Int)
    /// More descriptors in one message than the socket helper passes at once.
    case tooManyDescriptors(count: Int)

    public var description: String {
        switch self {
        case .invalidMessageSize(let objectID, let opcode, let size):
            "invalid Wayland message size \(size) (object \(objectID), opcode \(opcode))"
        case .truncatedArgument(let objectID, let opcode, let argument):
            "Wayland message truncated at argument \(argument) (object \(objectID), opcode \(opcode))"
        case .trailingBytes(let objectID, let opcode, let count):
            "\(count) unexpected bytes after the arguments of a Wayland message (object \(objectID), opcode \(opcode))"
        case .invalidString(let objectID, let opcode, let argument):
            "Wayland string argument \(argument) is not NUL-terminated UTF-8 (object \(objectID), opcode \(opcode))"
        case .missingDescriptor(let objectID, let opcode):
            "Wayland message with an fd argument arrived without a descriptor (object \(objectID), opcode \(opcode))"
        case .messageTooLarge(let objectID, let opcode, let size):
            "Wayland message of \(size) bytes exceeds the wire's limit of \(WireLimits.maxMessageSize) (object \(objectID), opcode \(opcode))"
        case .argumentMismatch(let objectID, let opcode, let argument):
            "Wayland argument \(argument) does not match its signature (object \(objectID), opcode \(opcode))"
        case .tooManyDescriptors(let count):
            "\(count) descriptors in one Wayland message exceed the limit"
        }
    }
}

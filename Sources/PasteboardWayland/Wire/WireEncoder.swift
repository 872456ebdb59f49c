/// Turns messages into wire bytes. The descriptors of fd arguments are not in the bytes: the
/// caller sends ``WireMessage/descriptors`` with them (SCM_RIGHTS).
public enum WireEncoder {
    /// The bytes of `message`, header included. Throws ``WireError/messageTooLarge`` when the
    /// arguments do not fit the 16-bit size field, instead of sending a message the compositor
    /// would misread.
    public static func encode(_ message: WireMessage) throws(WireError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        appendWord(message.objectID, to: &bytes)
        appendWord(0, to: &bytes)  // size and opcode, once the size is known
        for argument in message.arguments {
            switch argument {
            case .int(let value): appendWord(UInt32(bitPattern: value), to: &bytes)
            case .uint(let value): appendWord(value, to: &bytes)
            case .fixed(let value): appendWord(UInt32(bitPattern: value.rawValue), to: &bytes)
            case .string(let value): try appendString(value, to: &bytes, message)
            case .object(let id), .newID(let id): appendWord(id, to: &bytes)
            case .untypedNewID(let interface, let version, let id):
                try appendString(interface, to: &bytes, message)
                appendWord(version, to: &bytes)
                appendWord(id, to: &bytes)
            case .array(let value): try appendBlob(value, to: &bytes, message)
            case .fd: break
            }
        }
        guard bytes.count <= WireLimits.maxMessageSize else {
            throw WireError.messageTooLarge(objectID: message.objectID, opcode: message.opcode, size: bytes.count)
        }
        let word = UInt32(bytes.count) << 16 | UInt32(message.opcode)
        withUnsafeBytes(of: word) { bytes.replaceSubrange(4..<8, with: $0) }
        return bytes
    }

    static func appendWord(_ word: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: word) { bytes.append(contentsOf: $0) }
    }

    /// A string: its length including the NUL as u32, the bytes, the NUL, padding to 4.
    /// The null string is a length of 0.
    private static func appendString(_ string: String?, to bytes: inout [UInt8], _ message: WireMessage) throws(WireError) {
        guard let string else { return appendWord(0, to: &bytes) }
        try appendBlob(Array(string.utf8) + [0], to: &bytes, message)
    }

    /// Length-prefixed bytes padded to 4, as strings and arrays are.
    private static func appendBlob(_ blob: [UInt8], to bytes: inout [UInt8], _ message: WireMessage) throws(WireError) {
        guard blob.count <= WireLimits.maxMessageSize else {
            throw WireError.messageTooLarge(objectID: message.objectID, opcode: message.opcode, size: blob.count)
        }
        appendWord(UInt32(blob.count), to: &bytes)
        bytes.append(contentsOf: blob)
        bytes.append(contentsOf: repeatElement(0, count: padding(blob.count)))
    }

    /// The bytes that pad `count` up to a multiple of 4.
    static func padding(_ count: Int) -> Int { (4 - count % 4) % 4 }
}

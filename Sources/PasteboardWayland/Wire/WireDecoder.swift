/// Turns the bytes of one message into arguments, given the signature the protocol XML gives
/// that request or event. Every length from the wire is checked against what is left of the
/// message before it is used.
public enum WireDecoder {
    /// Decodes the whole message in `bytes` (header included, exactly `header.size` long) with
    /// `signature`, taking one descriptor from the front of `descriptors` for each fd argument.
    /// Throws a ``WireError`` for a message that is short, long, or malformed.
    public static func decode(_ bytes: ArraySlice<UInt8>, signature: WireSignature, descriptors: inout [Int32]) throws(WireError) -> WireMessage {
        guard let header = try WireHeader.read(from: bytes), header.size == bytes.count else {
            throw WireError.invalidMessageSize(objectID: 0, opcode: 0, size: bytes.count)
        }
        var cursor = Cursor(bytes: bytes, position: bytes.startIndex + WireLimits.headerSize, header: header)
        var arguments: [WireArgument] = []
        arguments.reserveCapacity(signature.count)
        // Descriptors are only taken once the bytes decoded, so a malformed message consumes none.
        var descriptorCount = 0
        for (index, type) in signature.enumerated() {
            cursor.argument = index
            switch type {
            case .int: arguments.append(.int(Int32(bitPattern: try cursor.word())))
            case .uint: arguments.append(.uint(try cursor.word()))
            case .fixed: arguments.append(.fixed(WireFixed(rawValue: Int32(bitPattern: try cursor.word()))))
            case .string: arguments.append(.string(try cursor.string()))
            case .object: arguments.append(.object(try cursor.word()))
            case .newID: arguments.append(.newID(try cursor.word()))
            case .untypedNewID:
                guard let interface = try cursor.string() else {
                    throw WireError.invalidString(objectID: header.objectID, opcode: header.opcode, argument: index)
                }
                arguments.append(.untypedNewID(interface: interface, version: try cursor.word(), id: try cursor.word()))
            case .array: arguments.append(.array(try cursor.blob()))
            case .fd:
                arguments.append(.fd(-1))
                descriptorCount += 1
            }
        }
        let left = bytes.endIndex - cursor.position
        guard left == 0 else { throw WireError.trailingBytes(objectID: header.objectID, opcode: header.opcode, count: left) }
        guard descriptors.count >= descriptorCount else {
            throw WireError.missingDescriptor(objectID: header.objectID, opcode: header.opcode)
        }
        for index in arguments.indices where arguments[index] == .fd(-1) {
            arguments[index] = .fd(descriptors.removeFirst())
        }
        return WireMessage(objectID: header.objectID, opcode: header.opcode, arguments: arguments)
    }

    /// The u32 at `index`, in host byte order.
    static func word<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes, at index: Int) -> UInt32 where Bytes.Index == Int {
        var word: UInt32 = 0
        withUnsafeMutableBytes(of: &word) { raw in
            for offset in 0..<4 { raw[offset] = bytes[index + offset] }
        }
        return word
    }

    /// Reads arguments front to back, refusing to step past the message's end.
    private struct Cursor {
        let bytes: ArraySlice<UInt8>
        var position: Int
        let header: WireHeader
        var argument = 0

        private var truncated: WireError {
            .truncatedArgument(objectID: header.objectID, opcode: header.opcode, argument: argument)
        }

        mutating func word() throws(WireError) -> UInt32 {
            guard bytes.endIndex - position >= 4 else { throw truncated }
            defer { position += 4 }
            return WireDecoder.word(in: bytes, at: position)
        }

        /// A length-prefixed, padded run of bytes. The length is compared with what is left
        /// before anything is converted or sliced.
        mutating func blob() throws(WireError) -> [UInt8] {
            let length = try word()
            let left = bytes.endIndex - position
            guard UInt64(length) <= UInt64(left) else { throw truncated }
            let count = Int(length)
            let padded = count + WireEncoder.padding(count)
            guard padded <= left else { throw truncated }
            defer { position += padded }
            return Array(bytes[position..<(position + count)])
        }

        /// A string: nil for length 0, else the bytes before the NUL that must end it.
        mutating func string() throws(WireError) -> String? {
            let blob = try blob()
            guard let last = blob.last else { return nil }
            guard last == 0, !blob.dropLast().contains(0),
                  let string = String(validating: blob.dropLast(), as: UTF8.self) else {
                throw WireError.invalidString(objectID: header.objectID, opcode: header.opcode, argument: argument)
            }
            return string
        }
    }
}

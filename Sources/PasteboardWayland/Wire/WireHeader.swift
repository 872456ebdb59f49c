/// The 8-byte header of a message: whom it is for, which request or event, and how long it is.
public struct WireHeader: Equatable, Sendable {
    public var objectID: UInt32
    public var opcode: UInt16
    /// The whole message's size in bytes, header included (checked: 8 or more, a multiple of 4).
    public var size: Int

    /// Reads and checks the header at the start of `bytes`; nil when fewer than 8 bytes are there.
    public static func read<Bytes: RandomAccessCollection<UInt8>>(from bytes: Bytes) throws(WireError) -> WireHeader? where Bytes.Index == Int {
        guard bytes.count >= WireLimits.headerSize else { return nil }
        let objectID = WireDecoder.word(in: bytes, at: bytes.startIndex)
        let word = WireDecoder.word(in: bytes, at: bytes.startIndex + 4)
        let size = Int(word >> 16)
        let opcode = UInt16(truncatingIfNeeded: word)
        guard size >= WireLimits.headerSize, size % 4 == 0 else {
            throw WireError.invalidMessageSize(objectID: objectID, opcode: opcode, size: size)
        }
        return WireHeader(objectID: objectID, opcode: opcode, size: size)
    }
}

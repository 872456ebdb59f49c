/// Little-endian numbers as the protocol spec's "Encoding" lays them out for our 'l' byte order,
/// written by hand so the tests do not check the encoders with themselves.
enum WireBytes {
    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8)] }
    static func i16(_ value: Int16) -> [UInt8] { le16(UInt16(bitPattern: value)) }
    static func le32(_ value: UInt32) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 24)] }
    static func zeros(_ count: Int) -> [UInt8] { [UInt8](repeating: 0, count: count) }

    /// A reply: header, then `fields` (24 bytes at most) padded to 24, then `extra`.
    static func reply(byte1: UInt8 = 0, sequence: UInt16 = 1, fields: [UInt8], extra: [UInt8] = []) -> [UInt8] {
        [1, byte1] + le16(sequence) + le32(UInt32(extra.count / 4)) + fields + zeros(24 - fields.count) + extra
    }
}

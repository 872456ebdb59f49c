/// Reads numbers from bytes the server sent (least significant byte first, as we asked at
/// setup). Every read is bounds-checked and throws `X11Error.malformedFromServer` instead of
/// trapping, since the bytes come from another process.
struct WireReader {
    let bytes: ArraySlice<UInt8>
    private(set) var offset: Int
    let context: String

    init(_ bytes: ArraySlice<UInt8>, context: String) {
        self.bytes = bytes
        self.offset = bytes.startIndex
        self.context = context
    }

    init(_ bytes: [UInt8], context: String) { self.init(bytes[...], context: context) }

    var remaining: Int { bytes.endIndex - offset }

    private mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else {
            throw X11Error.malformedFromServer("\(context): needs \(count) bytes at offset \(offset - bytes.startIndex), has \(remaining)")
        }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func u8() throws -> UInt8 { try take(1).first! }

    mutating func u16() throws -> UInt16 {
        let slice = try take(2)
        return UInt16(slice[slice.startIndex]) | UInt16(slice[slice.startIndex + 1]) << 8
    }

    mutating func u32() throws -> UInt32 {
        let slice = try take(4)
        var value: UInt32 = 0
        for (index, byte) in slice.enumerated() { value |= UInt32(byte) << UInt32(8 * index) }
        return value
    }

    mutating func i16() throws -> Int16 { Int16(bitPattern: try u16()) }

    /// A BOOL: 0 or 1; any other byte is refused (`what` names the field).
    mutating func bool(_ what: String) throws -> Bool {
        let byte = try u8()
        guard byte <= 1 else { throw X11Error.malformedFromServer("\(context): \(what) is \(byte), not a BOOL") }
        return byte == 1
    }

    mutating func skip(_ count: Int) throws { _ = try take(count) }

    mutating func bytes(_ count: Int) throws -> ArraySlice<UInt8> { try take(count) }

    /// `count` bytes and the padding after them to a multiple of four.
    mutating func paddedBytes(_ count: Int) throws -> ArraySlice<UInt8> {
        let value = try take(count)
        try skip(X11Wire.padding(count))
        return value
    }

    mutating func string(_ count: Int) throws -> String { String(decoding: try take(count), as: UTF8.self) }
}

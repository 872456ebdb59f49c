/// Base64 (RFC 4648, the standard alphabet, with padding), the encoding OSC 52 carries its data
/// in; written here because pb links no Foundation.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The length of `count` bytes encoded: 4 for every 3, the last group padded.
    public static func encodedLength(of count: Int) -> Int {
        (count + 2) / 3 * 4
    }

    /// `bytes` encoded, appended to `output`.
    public static func encode(_ bytes: some Collection<UInt8>, into output: inout [UInt8]) {
        output.reserveCapacity(output.count + encodedLength(of: bytes.count))
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = second == nil ? nil : iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(alphabet[Int(group >> 18 & 63)])
            output.append(alphabet[Int(group >> 12 & 63)])
            output.append(second == nil ? UInt8(ascii: "=") : alphabet[Int(group >> 6 & 63)])
            output.append(third == nil ? UInt8(ascii: "=") : alphabet[Int(group & 63)])
        }
    }

    /// The bytes `text` encodes; nil when it is not Base64: a byte outside the alphabet, padding
    /// anywhere but at the end, or a length that no encoding has (padding may be left out, as
    /// some terminals do).
    public static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3 + 2)
        var group: UInt32 = 0
        var held = 0
        var padding = 0
        for byte in text {
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0, let value = value(of: byte) else { return nil }
            group = group << 6 | UInt32(value)
            held += 1
            if held == 4 {
                output.append(UInt8(group >> 16 & 0xff))
                output.append(UInt8(group >> 8 & 0xff))
                output.append(UInt8(group & 0xff))
                group = 0
                held = 0
            }
        }
        // What the last group's characters (2 or 3 of them) hold; 1 alone holds no byte.
        switch held {
        case 0:
            guard padding == 0 else { return nil }
        case 2:
            guard padding == 0 || padding == 2 else { return nil }
            output.append(UInt8(group >> 4 & 0xff))
        case 3:
            guard padding == 0 || padding == 1 else { return nil }
            output.append(UInt8(group >> 10 & 0xff))
            output.append(UInt8(group >> 2 & 0xff))
        default:
            return nil
        }
        return output
    }

    private static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}

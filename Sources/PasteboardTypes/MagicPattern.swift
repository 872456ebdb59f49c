#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A byte sequence expected at a fixed offset of a file's content, e.g. PNG's signature.
///
/// In JSON: `{"offset": 0, "bytes": "89504e47"}` with `bytes` as a hex string.
public struct MagicPattern: Hashable, Sendable, Codable {
    /// Where the bytes start, counted from the beginning of the content.
    public var offset: Int
    /// The bytes that must appear at `offset`.
    public var bytes: [UInt8]

    /// Creates a pattern matching `bytes` at `offset`.
    public init(offset: Int = 0, bytes: [UInt8]) {
        self.offset = offset
        self.bytes = bytes
    }

    /// Creates a pattern from a hex string such as `"89504e47"`; `nil` if the string is not valid hex.
    public init?(offset: Int = 0, hex: String) {
        guard let bytes = Self.bytes(fromHex: hex) else { return nil }
        self.init(offset: offset, bytes: bytes)
    }

    /// The pattern's bytes as a lowercase hex string.
    public var hexBytes: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `prefix` holds the pattern's bytes at its offset.
    func matches(_ prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty, offset >= 0, offset <= prefix.count - bytes.count else { return false }
        for (index, byte) in bytes.enumerated() where prefix[offset + index] != byte {
            return false
        }
        return true
    }

    /// Decodes a non-empty, even-length hex string (either case), or returns `nil`.
    static func bytes(fromHex hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// Decodes `{"offset": Int, "bytes": "hex"}`; unknown keys and bad hex are errors.
    public init(from decoder: any Decoder) throws {
        self = try DeclarationParser.decode(from: decoder) { DeclarationParser.magicPattern($0, path: "magic", problems: &$1) }
    }

    /// Encodes as `{"offset": Int, "bytes": "hex"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(offset, forKey: .offset)
        try container.encode(hexBytes, forKey: .bytes)
    }

    private enum CodingKeys: String, CodingKey {
        case offset, bytes
    }
}

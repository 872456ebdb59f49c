import Foundation

/// A note drawn as a small PNG card: a dark title band over a light body, one stripe per line
/// of the body. A real app renders text; this one needs no image library, only valid PNG
/// (stored zlib blocks, CRCs) whose size follows the note.
enum NoteCard {
    static func png(for note: Note) -> Data {
        let width = 16 + 4 * min(note.title.count, 60)
        let bodyLines = note.body.split(separator: "\n", omittingEmptySubsequences: false).count
        let height = 12 + 6 * min(bodyLines, 40)
        var raw: [UInt8] = []
        raw.reserveCapacity((1 + 3 * width) * height)
        for y in 0..<height {
            raw.append(0)  // filter: none
            let shade: UInt8 = y < 10 ? 0x30 : (y - 12) % 6 == 2 ? 0xB0 : 0xF4
            for _ in 0..<width { raw += [shade, shade, y < 10 ? 0x60 : shade] }
        }
        var png = Data([137, 80, 78, 71, 13, 10, 26, 10])
        png += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0])
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return png
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> Data {
        let body = Array(type.utf8) + data
        return Data(bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body)))
    }

    /// `data` as a zlib stream of stored (uncompressed) deflate blocks.
    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(b << 16 | a)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }
}

import Foundation
@testable import PasteboardDesktop
import XCTest

/// PNG previews for a drag handle (issue 42): a real file decodes to its pixels, and whatever
/// else a drag may carry gets no preview rather than a crash or a huge allocation.
final class PNGPreviewTests: XCTestCase {
    private static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/lighthouse.png")

    func testTheFixtureDecodesToItsPixels() throws {
        let bytes = Array(try Data(contentsOf: Self.fixture))
        let image = try XCTUnwrap(PNGPreview.decode(bytes))
        XCTAssertEqual([image.width, image.height], [320, 200])
        // The pixels zlib and the filters give (checked with Python's zlib and the PNG spec's filters).
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(image.bytes[((y * 320 + x) * 4)..<((y * 320 + x) * 4 + 4)]) }
        XCTAssertEqual(pixel(0, 0), [40, 60, 140, 255])
        XCTAssertEqual(pixel(160, 100), [200, 30, 30, 255])
        XCTAssertEqual(pixel(319, 199), [20, 41, 80, 255])
    }

    func testAPaletteImageWithTransparencyAndASmallBitDepth() throws {
        // 2 × 1, 1 bit per pixel: index 0 (transparent red), index 1 (opaque green).
        let png = Self.png(width: 2, height: 1, bitDepth: 1, colorType: 3, rows: [[0, 0b0100_0000]],
                           extra: [("PLTE", [255, 0, 0, 0, 255, 0]), ("tRNS", [0])])
        let image = try XCTUnwrap(PNGPreview.decode(png))
        XCTAssertEqual(image.bytes, [255, 0, 0, 0, 0, 255, 0, 255])
    }

    func testWhatIsNotAPNGItCanReadGetsNoPreview() throws {
        let bytes = Array(try Data(contentsOf: Self.fixture))
        XCTAssertNil(PNGPreview.decode(Array("not a png".utf8)))
        XCTAssertNil(PNGPreview.decode(Array(bytes.prefix(100))), "a truncated file")
        var corrupt = bytes
        corrupt[40] ^= 0xff
        XCTAssertNil(PNGPreview.decode(corrupt), "a chunk whose CRC does not match")
        // A header claiming 100,000 × 100,000 pixels sizes nothing.
        XCTAssertNil(PNGPreview.decode(Self.png(width: 100_000, height: 100_000, bitDepth: 8, colorType: 6, rows: [])))
        // Interlaced: no preview (documented).
        XCTAssertNil(PNGPreview.decode(Self.png(width: 1, height: 1, bitDepth: 8, colorType: 0, rows: [[0, 7]], interlace: 1)))
        // Image data shorter than the header says.
        XCTAssertNil(PNGPreview.decode(Self.png(width: 4, height: 4, bitDepth: 8, colorType: 0, rows: [[0, 1, 2, 3, 4]])))
    }

    /// A PNG of `rows` (each with its filter byte), deflated as stored blocks.
    private static func png(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, rows: [[UInt8]],
                            extra: [(String, [UInt8])] = [], interlace: UInt8 = 0) -> [UInt8] {
        func be32(_ value: Int) -> [UInt8] { [UInt8(value >> 24 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be32(data.count) + body + be32(Int(crc32(body)))
        }
        let raw = rows.flatMap { $0 }
        var zlib: [UInt8] = [0x78, 0x01, 0x01, UInt8(raw.count & 0xff), UInt8(raw.count >> 8), UInt8(~raw.count & 0xff), UInt8((~raw.count >> 8) & 0xff)] + raw
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        zlib += be32(Int(b << 16 | a))
        var png: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
        png += chunk("IHDR", be32(width) + be32(height) + [bitDepth, colorType, 0, 0, interlace])
        for (type, data) in extra { png += chunk(type, data) }
        png += chunk("IDAT", zlib) + chunk("IEND", [])
        return png
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

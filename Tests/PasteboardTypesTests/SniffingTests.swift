import Foundation
import PasteboardTypes
import XCTest

final class SniffingTests: XCTestCase {
    let registry = TypeRegistry.builtIn

    private func sniff(_ bytes: [UInt8], complete: Bool = true, _ filename: String? = nil) -> TypeIdentifier {
        registry.sniff(prefix: bytes, isComplete: complete, filename: filename)
    }

    private func padded(_ head: [UInt8]) -> [UInt8] {
        head + [UInt8](repeating: 0, count: 600)
    }

    func testMagicBeatsAMisleadingExtension() {
        XCTAssertEqual(sniff(padded([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "photo.jpg"), .png)
        XCTAssertEqual(sniff(padded([0xFF, 0xD8, 0xFF, 0xE0]), "photo.png"), .jpeg)
        XCTAssertEqual(sniff(padded(Array("GIF89a".utf8)), "notes.txt"), .gif)
        XCTAssertEqual(sniff(padded(Array("GIF87a".utf8)), nil), .gif)
        XCTAssertEqual(sniff(Array("%PDF-1.7\n%\u{e2}\u{e3}\n".utf8), "report.txt"), .pdf, "PDF looks like text but has magic")
        XCTAssertEqual(sniff(padded([0x50, 0x4B, 0x03, 0x04]), "data.json"), .zipArchive)
        XCTAssertEqual(sniff(padded(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)), "x.png"), .webp)
    }

    func testMagicWorksOnAnyCollection() {
        let data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0])
        XCTAssertEqual(registry.sniff(prefix: data, isComplete: true, filename: nil), .png)
        XCTAssertEqual(registry.sniff(prefix: data.dropFirst(0).lazy.map { $0 }, isComplete: true, filename: nil), .png)
    }

    func testTooShortForMagicFallsThrough() {
        XCTAssertEqual(sniff([0x89, 0x50, 0x4E], "x.png"), .png, "by extension")
        XCTAssertEqual(sniff([0x89, 0x50, 0x4E]), .data)
    }

    func testExtensionUsedWhenNoMagic() {
        XCTAssertEqual(sniff(Array("<p>hi</p>".utf8), "page.HTML"), .html)
        XCTAssertEqual(sniff(Array("{}".utf8), "/tmp/dir.v2/config.json"), .json)
        XCTAssertEqual(sniff([0x00, 0x01, 0x02], "clip.mp4"), .mpeg4)
        XCTAssertEqual(sniff(Array("plain".utf8), "README"), .utf8PlainText)
        XCTAssertEqual(sniff(Array("plain".utf8), ".bashrc"), .utf8PlainText, "a leading dot is not an extension")
        XCTAssertEqual(sniff(Array("plain".utf8), "file.unknownext"), .utf8PlainText)
    }

    func testUTF8TextAndBinary() {
        XCTAssertEqual(sniff(Array("Hello, wörld — ✓ 🎉\n".utf8)), .utf8PlainText)
        XCTAssertEqual(sniff([0xEF, 0xBB, 0xBF] + Array("with BOM".utf8)), .utf8PlainText)
        XCTAssertEqual(sniff([0x48, 0x69, 0xFF, 0x21]), .data, "0xFF is never UTF-8")
        XCTAssertEqual(sniff([0xC0, 0xAF]), .data, "overlong encoding")
        XCTAssertEqual(sniff([0xED, 0xA0, 0x80]), .data, "UTF-16 surrogate")
        XCTAssertEqual(sniff([0x41, 0x80, 0x41]), .data, "stray continuation byte")
        XCTAssertEqual(sniff(Array("text\u{0}with NUL".utf8)), .data, "NUL bytes mean binary")
    }

    func testTruncatedMultibyteAtEndOfIncompletePrefixIsStillText() {
        let text = Array("caf\u{e9} \u{1F389}".utf8)  // ends with a 4-byte emoji
        for cut in 1...3 {
            let prefix = Array(text.dropLast(cut))
            XCTAssertEqual(sniff(prefix, complete: false), .utf8PlainText, "cut \(cut) bytes, more follows")
            XCTAssertEqual(sniff(prefix, complete: true), .data, "cut \(cut) bytes, nothing follows")
        }
        XCTAssertEqual(sniff([0x41, 0xE2, 0x41], complete: false), .data, "a bad byte inside the prefix is still bad")
    }

    func testEmptyContentIsUTF8PlainText() {
        XCTAssertEqual(sniff([]), .utf8PlainText)
        XCTAssertEqual(sniff([], complete: false), .utf8PlainText)
    }
}


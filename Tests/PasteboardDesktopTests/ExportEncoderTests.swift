import PasteboardDesktop
import XCTest

/// The conversions of exported text stream: the output is the same however the input is cut.
final class ExportEncoderTests: XCTestCase {
    /// `input` converted in pieces of `size` bytes.
    private func encode(_ conversion: ExportConversion, _ input: [UInt8], pieces size: Int) -> [UInt8] {
        var encoder = ExportEncoder(conversion)
        var output: [UInt8] = []
        var start = 0
        while start < input.count {
            output += encoder.encode(input[start..<min(input.count, start + size)])
            start += size
        }
        return output + encoder.finish()
    }

    private func latin1(_ text: String) -> [UInt8] {
        encode(.utf8ToLatin1, Array(text.utf8), pieces: 1 << 20)
    }

    func testLatin1KeepsEveryCharacterItHasAndMarksTheRest() {
        XCTAssertEqual(latin1("plain ASCII"), Array("plain ASCII".utf8))
        XCTAssertEqual(latin1("Grüße, ÿ"), [0x47, 0x72, 0xFC, 0xDF, 0x65, 0x2C, 0x20, 0xFF])
        XCTAssertEqual(latin1("€ 5 😀"), Array("? 5 ?".utf8))
    }

    func testLatin1IsTheSameWhateverTheChunkBoundaries() {
        let text = Array("àé€😀ñ plain ß — end".utf8)
        let whole = encode(.utf8ToLatin1, text, pieces: text.count)
        for size in 1...5 {
            XCTAssertEqual(encode(.utf8ToLatin1, text, pieces: size), whole, "pieces of \(size)")
        }
        XCTAssertEqual(whole, Array("àé??ñ plain ß ? end".unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }))
    }

    func testMalformedUTF8BecomesQuestionMarks() {
        XCTAssertEqual(encode(.utf8ToLatin1, [0x41, 0xFF, 0x42], pieces: 1), Array("A?B".utf8))
        XCTAssertEqual(encode(.utf8ToLatin1, [0x41, 0xC3], pieces: 1), Array("A?".utf8), "a sequence cut off at the end")
        XCTAssertEqual(encode(.utf8ToLatin1, [0xC3, 0x41], pieces: 1), Array("?A".utf8))
        XCTAssertEqual(encode(.utf8ToLatin1, [0x80, 0x80, 0x80, 0x80], pieces: 2), Array("????".utf8))
    }

    func testNoConversionPassesBytesThrough() {
        let bytes: [UInt8] = [0, 0xFF, 0xC3, 0x0A]
        XCTAssertEqual(encode(.none, bytes, pieces: 1), bytes)
    }

    func testAURIListBecomesGNOMEsCopiedFiles() {
        let list = Array("# a comment\r\nfile:///tmp/a%20b\r\nfile:///tmp/c\r\n\r\n".utf8)
        let expected = Array("copy\nfile:///tmp/a%20b\nfile:///tmp/c".utf8)
        for size in [1, 2, 3, list.count] {
            XCTAssertEqual(encode(.uriListToGnomeCopiedFiles, list, pieces: size), expected, "pieces of \(size)")
        }
        XCTAssertEqual(encode(.uriListToGnomeCopiedFiles, Array("file:///x".utf8), pieces: 4), Array("copy\nfile:///x".utf8))
        XCTAssertEqual(encode(.uriListToGnomeCopiedFiles, [], pieces: 1), Array("copy".utf8))
    }
}

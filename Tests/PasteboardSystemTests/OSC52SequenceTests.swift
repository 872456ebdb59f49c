import PasteboardSystem
import XCTest

/// OSC 52's bytes as pb writes and reads them: Base64 both ways, the sequences, the limit's
/// arithmetic, and the reading of an answer (tmux's empty selection, BEL or ST, bounds).
final class OSC52SequenceTests: XCTestCase {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func testBase64MatchesRFC4648sVectors() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            var output: [UInt8] = []
            Base64.encode(bytes(plain), into: &output)
            XCTAssertEqual(String(decoding: output, as: UTF8.self), encoded)
            XCTAssertEqual(Base64.decode(bytes(encoded)), bytes(plain), encoded)
            XCTAssertEqual(Base64.encodedLength(of: plain.utf8.count), encoded.utf8.count)
        }
    }

    func testBase64RoundTripsEveryByteAndAcceptsMissingPadding() {
        let all = (0...255).map(UInt8.init)
        var encoded: [UInt8] = []
        Base64.encode(all, into: &encoded)
        XCTAssertEqual(Base64.decode(encoded), all)
        XCTAssertEqual(Base64.decode(bytes("Zm9vYg")), bytes("foob"))
        XCTAssertEqual(Base64.decode(bytes("Zm9vYmE")), bytes("fooba"))
    }

    func testBase64RefusesWhatNoEncodingIs() {
        for text in ["Z", "Zm9vY", "Zm=v", "Zm9v=", "Zg==Zg==", "Zm9v\n", "Zm 9v", "Zg==="] {
            XCTAssertNil(Base64.decode(bytes(text)), text)
        }
    }

    func testTheSequencesAreXtermsWithBEL() {
        XCTAssertEqual(OSC52Sequence.setting(.clipboard, to: bytes("hi")), bytes("\u{1b}]52;c;aGk=\u{07}"))
        XCTAssertEqual(OSC52Sequence.setting(.primary, to: bytes("")), bytes("\u{1b}]52;p;\u{07}"))
        XCTAssertEqual(OSC52Sequence.query(.clipboard), bytes("\u{1b}]52;c;?\u{07}"))
    }

    func testPasteboardNamesMapToSelections() {
        XCTAssertEqual(OSC52Sequence.Selection(pasteboard: "general"), .clipboard)
        XCTAssertEqual(OSC52Sequence.Selection(pasteboard: "primary"), .primary)
        XCTAssertNil(OSC52Sequence.Selection(pasteboard: "secondary"))
        XCTAssertNil(OSC52Sequence.Selection(pasteboard: "work"))
    }

    func testTheDefaultLimitCarries74994BytesOfText() {
        XCTAssertEqual(OSC52Sequence.maximumTextCount(within: OSC52Sequence.defaultLimit), 74_994)
        XCTAssertEqual(OSC52Sequence.length(ofTextCount: 74_994), 100_000)
        XCTAssertGreaterThan(OSC52Sequence.length(ofTextCount: 74_995), 100_000)
        XCTAssertEqual(OSC52Sequence.setting(.clipboard, to: [UInt8](repeating: 65, count: 74_994)).count, 100_000)
        XCTAssertEqual(OSC52Sequence.maximumTextCount(within: 7), 0)
    }

    func testAnAnswerEndedByBELOrSTIsRead() {
        var bel = OSC52Reply(limit: 100)
        XCTAssertEqual(bel.feed(bytes("\u{1b}]52;c;aGVsbG8=\u{07}")), .answered(bytes("hello")))
        var st = OSC52Reply(limit: 100)
        XCTAssertEqual(st.feed(bytes("\u{1b}]52;c;aGVsbG8=\u{1b}\\")), .answered(bytes("hello")))
    }

    func testTmuxsEmptySelectionAndAnEmptyClipboardAreAnswers() {
        var tmux = OSC52Reply(limit: 100)
        XCTAssertEqual(tmux.feed(bytes("\u{1b}]52;;aGk=\u{07}")), .answered(bytes("hi")))
        var empty = OSC52Reply(limit: 100)
        XCTAssertEqual(empty.feed(bytes("\u{1b}]52;c;\u{07}")), .answered([]))
    }

    func testAnAnswerSplitAnywhereAndAfterOtherBytesIsRead() {
        let answer = bytes("typed\u{1b}[A\u{1b}\u{1b}]52;p;aGVsbG8=\u{1b}\\after")
        for split in 0...answer.count {
            var reply = OSC52Reply(limit: 100)
            let first = reply.feed(answer[..<split])
            let state = first == .incomplete ? reply.feed(answer[split...]) : first
            XCTAssertEqual(state, .answered(bytes("hello")), "split at \(split)")
        }
    }

    func testAnAnswerOverTheLimitIsRefusedAsItArrives() {
        var reply = OSC52Reply(limit: 8)
        XCTAssertEqual(reply.feed(bytes("\u{1b}]52;c;aGVsbG8=")), .incomplete)
        XCTAssertEqual(reply.feed(bytes("A")), .tooLong(limit: 8))
        XCTAssertEqual(reply.feed(bytes("\u{07}")), .tooLong(limit: 8), "once decided, more bytes change nothing")
        var exact = OSC52Reply(limit: 8)
        XCTAssertEqual(exact.feed(bytes("\u{1b}]52;c;aGVsbG8=\u{07}")), .answered(bytes("hello")))
    }

    func testEndlessOtherBytesAreNoAnswer() {
        var reply = OSC52Reply(limit: 100, skipLimit: 16)
        XCTAssertEqual(reply.feed([UInt8](repeating: UInt8(ascii: "x"), count: 16)), .incomplete)
        XCTAssertEqual(reply.feed(bytes("x")), .noAnswer)
        // Escapes and half introducers count as skipped too.
        var escapes = OSC52Reply(limit: 100, skipLimit: 64)
        XCTAssertEqual(escapes.feed([UInt8](repeating: 0x1b, count: 40) + bytes("]5x")), .incomplete)
        XCTAssertEqual(escapes.feed([UInt8](repeating: UInt8(ascii: "]"), count: 30)), .noAnswer)
    }

    func testMalformedAnswersAreSaidSo() {
        for text in ["\u{1b}]52;c;a*b=\u{07}", "\u{1b}]52;c;aGk=\u{1b}x", "\u{1b}]52;c!;aGk=\u{07}", "\u{1b}]52;ccccccccccccc;aGk=\u{07}", "\u{1b}]52;c;?\u{07}"] {
            var reply = OSC52Reply(limit: 100)
            XCTAssertEqual(reply.feed(bytes(text)), .malformed, text.debugDescription)
        }
    }
}

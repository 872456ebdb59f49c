import NIOCore
@testable import PasteboardDaemon
import XCTest

/// Reading a journal back: whole records, the zeros the writer extends it with, and what a
/// crash can leave in either.
final class JournalFileTests: XCTestCase {
    private func archive(_ name: String) -> [ByteBuffer] {
        PasteboardArchive.encoded(NamedPasteboard(name: name))
    }

    private func journal(_ archives: [[ByteBuffer]], then tail: [UInt8] = []) -> ByteBuffer {
        var buffer = ByteBuffer(bytes: JournalFile.magic)
        for archive in archives { JournalFile.appendRecord(of: archive, to: &buffer) }
        buffer.writeBytes(tail)
        return buffer
    }

    func testZerosAfterTheRecordsAreTheWritersPreallocationNotAProblem() throws {
        let records = journal([archive("one"), archive("two")])
        let contents = try JournalFile.contents(of: journal([archive("one"), archive("two")], then: Array(repeating: 0, count: 4096)), source: "journal")
        XCTAssertEqual(contents.archives.count, 2)
        XCTAssertEqual(contents.validLength, records.readableBytes, "the records end where the zeros begin")
        XCTAssertNil(contents.problem)
    }

    func testARecordCutShortInsideTheZerosEndsTheValidPartWithAProblem() throws {
        let whole = journal([archive("one")])
        // A crash mid-append: the length word made it to disk, the archive only in part.
        var torn = Array(journal([archive("two")]).readableBytesView.dropFirst(JournalFile.headerLength).prefix(40))
        torn += Array(repeating: 0, count: 1000)
        let contents = try JournalFile.contents(of: journal([archive("one")], then: torn), source: "journal")
        XCTAssertEqual(contents.archives.count, 1)
        XCTAssertEqual(contents.validLength, whole.readableBytes)
        XCTAssertNotNil(contents.problem)
    }

    func testBytesAfterAZeroLengthWordAreAWriteCutShort() throws {
        // The length word was not written but later bytes of the record were.
        let contents = try JournalFile.contents(of: journal([archive("one")], then: [0, 0, 0, 0] + Array("PBSTATE1".utf8) + [0, 0]), source: "journal")
        XCTAssertEqual(contents.archives.count, 1)
        XCTAssertTrue(contents.problem?.contains("incomplete record") == true, contents.problem ?? "no problem")
    }
}

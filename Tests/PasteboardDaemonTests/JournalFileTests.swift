import NIOCore
@testable import PasteboardDaemon
import PasteboardTypes
import XCTest

/// Reading a journal back record by record: whole records, the zeros the writer extends it
/// with, what a crash can leave at the end, and damage inside, which costs only the damaged
/// record.
final class JournalFileTests: XCTestCase {
    /// The archive of pasteboard `name` holding one item of 40 bytes of text.
    private func archive(_ name: String) -> [ByteBuffer] {
        let item = StoredItem(representations: [StoredRepresentation(type: .utf8PlainText, chunks: [ByteBuffer(string: String(repeating: "x", count: 40))])])
        return PasteboardArchive.encoded(NamedPasteboard(name: name).replacing([item]))
    }

    private func journal(_ archives: [[ByteBuffer]], then tail: [UInt8] = []) -> ByteBuffer {
        var buffer = ByteBuffer(bytes: JournalFile.magic)
        for archive in archives { JournalFile.appendRecord(of: archive, to: &buffer) }
        buffer.writeBytes(tail)
        return buffer
    }

    /// Where each record of `journal` (whole, undamaged) starts.
    private func recordOffsets(_ journal: ByteBuffer) -> [Int] {
        var offsets: [Int] = []
        var offset = JournalFile.headerLength
        while offset + 4 <= journal.readableBytes, let length = journal.getInteger(at: offset, as: UInt32.self), length > 0 {
            offsets.append(offset)
            offset += 4 + Int(length)
        }
        return offsets
    }

    /// Scans `bytes`: the names of the pasteboards read, with their record numbers, and the outcome.
    private func scan(_ bytes: ByteBuffer) throws -> (names: [String], numbers: [Int], outcome: JournalScanner<JournalMemoryBytes>.Outcome) {
        var names: [String] = []
        var numbers: [Int] = []
        let outcome = try JournalScanner(bytes: JournalMemoryBytes(bytes: bytes), source: "journal").scan { archive, number in
            names.append((try? PasteboardArchive.decode(archive, registry: .builtIn, source: "record"))?.name ?? "?")
            numbers.append(number)
        }
        return (names, numbers, outcome)
    }

    private func flipping(_ buffer: ByteBuffer, at offset: Int, with mask: UInt8 = 0x20) -> ByteBuffer {
        var bytes = Array(buffer.readableBytesView)
        bytes[offset] ^= mask
        return ByteBuffer(bytes: bytes)
    }

    func testZerosAfterTheRecordsAreTheWritersPreallocationNotAProblem() throws {
        let records = journal([archive("one"), archive("two")])
        let read = try scan(journal([archive("one"), archive("two")], then: Array(repeating: 0, count: 4096)))
        XCTAssertEqual(read.names, ["one", "two"])
        XCTAssertEqual(read.outcome.validLength, records.readableBytes, "the records end where the zeros begin")
        XCTAssertNil(read.outcome.tornTail)
        XCTAssertTrue(read.outcome.damaged.isEmpty)
    }

    func testARecordCutShortInsideTheZerosEndsTheValidPartAsATornWrite() throws {
        let whole = journal([archive("one")])
        // A crash mid-append: the length word made it to disk, the archive only in part.
        var torn = Array(journal([archive("two")]).readableBytesView.dropFirst(JournalFile.headerLength).prefix(40))
        torn += Array(repeating: 0, count: 1000)
        let read = try scan(journal([archive("one")], then: torn))
        XCTAssertEqual(read.names, ["one"])
        XCTAssertEqual(read.outcome.validLength, whole.readableBytes)
        XCTAssertNotNil(read.outcome.tornTail)
        XCTAssertTrue(read.outcome.damaged.isEmpty, "a torn write was never acknowledged: nothing is lost")
    }

    func testARecordCutShortByTheEndOfTheFileIsATornWrite() throws {
        let torn = Array(journal([archive("two")]).readableBytesView.dropFirst(JournalFile.headerLength).dropLast(5))
        let read = try scan(journal([archive("one")], then: torn))
        XCTAssertEqual(read.names, ["one"])
        XCTAssertNotNil(read.outcome.tornTail)
        XCTAssertTrue(read.outcome.damaged.isEmpty)
    }

    func testBytesAfterAZeroLengthWordAreAWriteCutShort() throws {
        // The length word was not written but later bytes of the record were.
        let read = try scan(journal([archive("one")], then: [0, 0, 0, 0] + Array("PBSTATE1".utf8) + [0, 0]))
        XCTAssertEqual(read.names, ["one"])
        XCTAssertTrue(read.outcome.tornTail?.contains("incomplete record") == true, read.outcome.tornTail ?? "no problem")
    }

    func testAFlippedByteInsideTheSecondOfFourRecordsCostsThatRecordOnly() throws {
        let whole = journal([archive("one"), archive("two"), archive("three"), archive("four")])
        let offsets = recordOffsets(whole)
        let read = try scan(flipping(whole, at: offsets[2] - 10))  // in the second record's data
        XCTAssertEqual(read.names, ["one", "three", "four"], "the acknowledged records after the damaged one are kept")
        XCTAssertEqual(read.numbers, [1, 3, 4])
        XCTAssertNil(read.outcome.tornTail, "damage inside is not a write cut short")
        XCTAssertEqual(read.outcome.damaged.map(\.number), [2])
        XCTAssertEqual(read.outcome.damaged.first?.offset, offsets[1])
        XCTAssertEqual(read.outcome.damaged.first?.content, "pasteboard 'two' (change count 1)", "what was lost, from its unchecked header")
        XCTAssertEqual(read.outcome.validLength, whole.readableBytes)
    }

    func testADamagedLengthWordIsSkippedByFindingTheNextRecord() throws {
        let whole = journal([archive("one"), archive("two"), archive("three"), archive("four")])
        let offsets = recordOffsets(whole)
        // Each makes the length word implausible: past the record bound, or ending past the file.
        XCTAssertLessThan(whole.readableBytes, 0xFF00)
        for (mask, position) in [(UInt8(0x80), 0), (0x10, 1), (0xFF, 2)] {
            let read = try scan(flipping(whole, at: offsets[1] + position, with: mask))
            XCTAssertEqual(read.names, ["one", "three", "four"], "mask \(mask) at \(position)")
            XCTAssertEqual(read.outcome.damaged.map(\.number), [2])
            XCTAssertEqual(read.outcome.damaged.first.map { $0.offset + $0.length }, offsets[2], "skipped up to the next record")
            XCTAssertNil(read.outcome.tornTail)
        }
    }

    func testAPlausibleButWrongLengthWordIsFollowedNotSearchedInside() throws {
        let whole = journal([archive("one"), archive("two"), archive("three"), archive("four")])
        let offsets = recordOffsets(whole)
        // Two's length word now ends it 20 bytes into three: three is lost with it, and four,
        // found from there, is kept; nothing is looked for inside the span two claims.
        var bytes = Array(whole.readableBytesView)
        let length = UInt32(offsets[2] + 20 - offsets[1] - 4)
        withUnsafeBytes(of: length.bigEndian) { for (index, byte) in $0.enumerated() { bytes[offsets[1] + index] = byte } }
        let read = try scan(ByteBuffer(bytes: bytes))
        XCTAssertEqual(read.names, ["one", "four"])
        XCTAssertEqual(read.outcome.damaged.first?.offset, offsets[1])
        XCTAssertEqual(read.outcome.damaged.first?.length, offsets[2] + 20 - offsets[1], "skipped to where its length word says it ends")
        XCTAssertEqual(read.outcome.damaged.last.map { $0.offset + $0.length }, offsets[3])
        XCTAssertEqual(read.outcome.validLength, whole.readableBytes)
    }

    func testADamagedRecordWhoseDataHoldsAValidRecordsImageIsNeverReadInside() throws {
        // A pasteboard holding a copied journal record (of pasteboard "inner") as its data.
        var image = ByteBuffer()
        JournalFile.appendRecord(of: archive("inner"), to: &image)
        let item = StoredItem(representations: [StoredRepresentation(type: .data, chunks: [ByteBuffer(string: "copied: "), image])])
        let outer = PasteboardArchive.encoded(NamedPasteboard(name: "outer").replacing([item]))
        let whole = journal([archive("one"), outer, archive("three"), archive("four")])
        let offsets = recordOffsets(whole)
        XCTAssertEqual(offsets.count, 4)
        // Outer fails its checksum (a byte of its header), and so does the record after it.
        let damaged = flipping(flipping(whole, at: offsets[1] + 20), at: offsets[3] - 10)
        let read = try scan(damaged)
        XCTAssertEqual(read.names, ["one", "four"], "the image inside outer's data is never applied as a pasteboard")
        XCTAssertEqual(read.numbers, [1, 4])
        XCTAssertEqual(read.outcome.damaged.map(\.number), [2, 3])
        XCTAssertEqual(read.outcome.damaged.map(\.offset), [offsets[1], offsets[2]])
        XCTAssertNil(read.outcome.tornTail)

        // The same when outer is the last record before the zeros written ahead, and when
        // bytes that are no record follow it.
        let last = flipping(journal([archive("one"), outer], then: Array(repeating: 0, count: 1000)), at: offsets[1] + 20)
        XCTAssertEqual(try scan(last).names, ["one"])
        XCTAssertEqual(try scan(last).outcome.damaged.map(\.number), [2])
        let garbage = flipping(journal([archive("one"), outer], then: Array(repeating: 0xEE, count: 100)), at: offsets[1] + 20)
        XCTAssertEqual(try scan(garbage).names, ["one"])
    }

    func testAZeroedLengthWordInsideIsDamageNotTheEnd() throws {
        let whole = journal([archive("one"), archive("two"), archive("three")])
        let offsets = recordOffsets(whole)
        var bytes = Array(whole.readableBytesView)
        for index in offsets[1]..<offsets[1] + 4 { bytes[index] = 0 }
        let read = try scan(ByteBuffer(bytes: bytes))
        XCTAssertEqual(read.names, ["one", "three"])
        XCTAssertEqual(read.outcome.damaged.count, 1)
    }

    func testTheLastRecordChangedAfterItWasWrittenIsDamageButOneEndingInZerosIsATornWrite() throws {
        let whole = journal([archive("one"), archive("two")], then: Array(repeating: 0, count: 100))
        let offsets = recordOffsets(whole)
        let flipped = try scan(flipping(whole, at: offsets[1] + 30))
        XCTAssertEqual(flipped.names, ["one"])
        XCTAssertEqual(flipped.outcome.damaged.map(\.number), [2])
        XCTAssertNil(flipped.outcome.tornTail)

        var bytes = Array(whole.readableBytesView)
        let end = offsets[1] + 4 + Int(whole.getInteger(at: offsets[1], as: UInt32.self)!)
        for index in end - 10..<end { bytes[index] = 0 }  // its last bytes never reached the disk
        let torn = try scan(ByteBuffer(bytes: bytes))
        XCTAssertEqual(torn.names, ["one"])
        XCTAssertTrue(torn.outcome.damaged.isEmpty)
        XCTAssertNotNil(torn.outcome.tornTail)
    }

    func testALengthWordPastTheBoundIsNeverReadAsARecord() throws {
        // 0xFFFFFFF0 bytes claimed: range-checked against the bound, not allocated.
        let read = try scan(journal([archive("one")], then: [0xFF, 0xFF, 0xFF, 0xF0] + Array(repeating: 7, count: 64)))
        XCTAssertEqual(read.names, ["one"])
        XCTAssertEqual(read.outcome.damaged.count, 1)
        XCTAssertTrue(read.outcome.damaged.first?.reason.contains("length word") == true)
    }

    func testBytesThatAreNoJournalAreRefused() {
        XCTAssertThrowsError(try scan(ByteBuffer(bytes: Array("not a journal at all".utf8))))
        XCTAssertThrowsError(try scan(ByteBuffer(bytes: Array("PBJR".utf8))))
    }

    func testRemovalRecordsAreSplitToStayUnderTheRecordBound() {
        let sequences = Array(0..<25_000).map { $0 + Int(Int32.max) }
        let records = JournalRecord.removals(of: sequences)
        XCTAssertEqual(records.count, 3)
        for record in records {
            XCTAssertLessThan(record.reduce(0) { $0 + $1.readableBytes }, JournalFile.recordLengthLimit)
        }
    }
}

@testable import PasteboardDaemon
import PasteboardTypes
import NIOCore
import XCTest

/// An expiry's deadline is stored with its content and read back after a restart: whatever a
/// file says, the time left is range-checked, and archives without one still read.
final class ExpiryDeadlineTests: XCTestCase {
    func testTheTimeLeftIsClampedWhateverTheDeadlineSays() {
        let now = 1_700_000_000_000
        XCTAssertEqual(ExpiryDeadline(millisecondsSinceEpoch: now + 2500).remainingMilliseconds(now: now), 2500)
        XCTAssertEqual(ExpiryDeadline(millisecondsSinceEpoch: now - 1).remainingMilliseconds(now: now), 0)
        XCTAssertTrue(ExpiryDeadline(millisecondsSinceEpoch: now).hasPassed(now: now))
        XCTAssertEqual(ExpiryDeadline(millisecondsSinceEpoch: .max).remainingMilliseconds(now: now), ExpiryDeadline.longestMilliseconds,
                       "a far-future deadline (a damaged file, a clock set back) waits at most the longest expiry")
        XCTAssertEqual(ExpiryDeadline(millisecondsSinceEpoch: .max).remainingMilliseconds(now: .min), ExpiryDeadline.longestMilliseconds)
        XCTAssertEqual(ExpiryDeadline(millisecondsSinceEpoch: .min).remainingMilliseconds(now: .max), 0)
        XCTAssertEqual(ExpiryDeadline(millisecondsSinceEpoch: .min).remaining(now: now), .zero)
    }

    func testADeadlineFromSecondsNeverConvertsOutOfRange() {
        let now = 1_700_000_000_000
        XCTAssertEqual(ExpiryDeadline(after: 2, now: now).millisecondsSinceEpoch, now + 2000)
        XCTAssertEqual(ExpiryDeadline(after: 0.0001, now: now).millisecondsSinceEpoch, now + 1)
        XCTAssertEqual(ExpiryDeadline(after: 1e19, now: now).remainingMilliseconds(now: now), ExpiryDeadline.longestMilliseconds)
        XCTAssertEqual(ExpiryDeadline(after: .infinity, now: now).remainingMilliseconds(now: now), ExpiryDeadline.longestMilliseconds)
        XCTAssertEqual(ExpiryDeadline(after: .nan, now: now).remainingMilliseconds(now: now), 0)
        XCTAssertEqual(ExpiryDeadline(after: -5, now: now).remainingMilliseconds(now: now), 0)
        XCTAssertEqual(ExpiryDeadline(after: 1e9, now: .max).millisecondsSinceEpoch, .max)
    }

    func testAnExpiringPasteboardsArchiveKeepsItsDeadline() throws {
        let item = StoredItem(representations: [StoredRepresentation(type: .utf8PlainText, chunks: [ByteBuffer(string: "soon gone")])])
        let pasteboard = NamedPasteboard(name: "general").replacing([item], expiry: ExpiryDeadline(millisecondsSinceEpoch: 1_700_000_002_000))
        let archive = PasteboardArchive.encoded(pasteboard).reduce(into: ByteBuffer()) { $0.writeImmutableBuffer($1) }
        XCTAssertTrue(String(buffer: archive).contains(#""expiresAt":1700000002000"#))
        let back = try PasteboardArchive.decode(archive, registry: .builtIn, source: "archive")
        XCTAssertEqual(back.expiry, ExpiryDeadline(millisecondsSinceEpoch: 1_700_000_002_000))
        XCTAssertEqual(back.changeCount, 1)
        XCTAssertNil(back.replacing([]).expiry, "new content does not inherit the old one's expiry")
    }

    func testAnArchiveWrittenBeforeExpiriesWereStoredStillReads() throws {
        // Today's daemon's bytes exactly: magic, header length, header without expiresAt, body, CRC-32.
        let header = #"{"name":"general","changeCount":3,"items":[{"representations":[{"type":"public.utf8-plain-text","kind":"data","size":5}]}]}"#
        let file = ArchiveFile.encoded(magic: Array("PBSTATE1".utf8), header: Array(header.utf8), body: [ByteBuffer(string: "hello")])
            .reduce(into: ByteBuffer()) { $0.writeImmutableBuffer($1) }
        let pasteboard = try PasteboardArchive.decode(file, registry: .builtIn, source: "old archive")
        XCTAssertEqual(pasteboard.changeCount, 3)
        XCTAssertNil(pasteboard.expiry)
        XCTAssertEqual(pasteboard.items.first?.representations.first?.size, 5)
        // And the writer still writes exactly those bytes for content that does not expire.
        XCTAssertEqual(PasteboardArchive.encoded(pasteboard).reduce(into: ByteBuffer()) { $0.writeImmutableBuffer($1) }, file)
        // In a journal, as today's daemon appended it.
        var journal = ByteBuffer(bytes: JournalFile.magic)
        JournalFile.appendRecord(of: [file], to: &journal)
        var read: [NamedPasteboard] = []
        let outcome = try JournalScanner(bytes: JournalMemoryBytes(bytes: journal), source: "journal").scan { archive, _ in
            if case .pasteboard(let pasteboard)? = try? JournalRecord.decode(archive, registry: .builtIn, source: "record") { read.append(pasteboard) }
        }
        XCTAssertEqual(read.map(\.changeCount), [3])
        XCTAssertTrue(outcome.damaged.isEmpty)
    }
}

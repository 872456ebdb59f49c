@testable import PasteboardDaemon
import NIOCore
import PasteboardJSON
import PasteboardProtocol
import PasteboardTypes
import XCTest

/// The archive header every durable copy writes goes through the members lists, as messages
/// do: what is written reads back the same, and a header as earlier daemons wrote it (the
/// synthesized Codable's bytes: members in declaration order, absent optionals left out) still
/// reads, and is written again byte for byte.
final class PasteboardArchiveTests: XCTestCase {
    /// A header of an earlier daemon's archive, every field of an item and a representation set
    /// somewhere, with strings that need escapes.
    private let earlierHeader = #"{"name":"work-ü","changeCount":9223372036854775807,"items":["#
        + #"{"representations":[{"type":"public.utf8-plain-text","kind":"data","size":16}]},"#
        + #"{"suggestedName":"a \"quoted\" \\ name\n\u0001 é 😀","visibility":"own-process","writerPID":-7,"representations":["#
        + #"{"type":"public.png","kind":"file","size":9,"path":"/tmp/a b.png","openInPlace":true},"#
        + #"{"type":"com.example.x","kind":"promise","note":"gallery (pid 42)"},"#
        + #"{"type":"public.data","kind":"unavailable","size":0,"note":""},"#
        + #"{"type":"public.data","kind":"stored","size":70000,"spool":"0123456789abcdef"}]},"#
        + #"{"representations":[]}],"expiresAt":1700000000123}"#

    func testAHeaderAsEarlierDaemonsWroteItReadsAndIsWrittenAgainByteForByte() throws {
        let header = try PasteboardArchive.Header(jsonDocument: Array(earlierHeader.utf8))
        XCTAssertEqual(header.name, "work-ü")
        XCTAssertEqual(header.changeCount, Int.max)
        XCTAssertEqual(header.expiresAt, 1_700_000_000_123)
        XCTAssertEqual(header.items.count, 3)
        XCTAssertEqual(header.items[1].suggestedName, "a \"quoted\" \\ name\n\u{1} é 😀")
        XCTAssertEqual(header.items[1].visibility, .ownProcess)
        XCTAssertEqual(header.items[1].writerPID, -7)
        XCTAssertEqual(header.items[1].representations.map(\.kind), [.file, .promise, .unavailable, .stored])
        XCTAssertEqual(header.items[1].representations[0].openInPlace, true)
        XCTAssertEqual(header.items[1].representations[3].spool, "0123456789abcdef")
        XCTAssertEqual(String(decoding: header.jsonDocument, as: UTF8.self), earlierHeader)
    }

    func testEveryHeaderReadsBackAsWritten() throws {
        let items = try PasteboardArchive.Header(jsonDocument: Array(earlierHeader.utf8)).items
        for header in [
            PasteboardArchive.Header(name: "general", changeCount: 0, items: []),
            PasteboardArchive.Header(name: "x", changeCount: -1, items: Array(items.prefix(1))),
            PasteboardArchive.Header(name: "soon", changeCount: 2, items: items, expiresAt: 1_700_000_000_123),
        ] {
            let written = header.jsonDocument
            XCTAssertEqual(try PasteboardArchive.Header(jsonDocument: written).jsonDocument, written)
        }
    }

    func testAHeaderMissingAFieldNamesIt() {
        let broken = #"{"name":"p","changeCount":1,"items":[{"representations":[{"kind":"data","size":1}]}]}"#
        XCTAssertThrowsError(try PasteboardArchive.Header(jsonDocument: Array(broken.utf8))) { error in
            XCTAssertEqual("\(error)", "missing field 'items.0.representations.0.type'")
        }
    }
}

/// Numbers read back from a state file are range-checked before anything counts on from them:
/// a file saying `Int.max` would make the next change count, or the next history sequence, trap.
final class StoredNumberTests: XCTestCase {
    private func bytes(_ buffers: [ByteBuffer]) -> ByteBuffer {
        var whole = ByteBuffer()
        for var buffer in buffers { whole.writeBuffer(&buffer) }
        return whole
    }

    func testAChangeCountOutOfRangeMakesTheArchiveDamaged() throws {
        for changeCount in [Int.max, -1] {
            let pasteboard = NamedPasteboard(name: "p", changeCount: changeCount, items: [])
            XCTAssertThrowsError(try PasteboardArchive.decode(bytes(PasteboardArchive.encoded(pasteboard)), registry: .builtIn, source: "p.pasteboard")) {
                XCTAssertTrue("\($0)".contains("change count out of range"), "\($0)")
            }
        }
        let fine = NamedPasteboard(name: "p", changeCount: 1 << 62, items: [])
        XCTAssertEqual(try PasteboardArchive.decode(bytes(PasteboardArchive.encoded(fine)), registry: .builtIn, source: "p").changeCount, 1 << 62)
    }

    func testAHistoryEntryWithASequenceChangeCountOrTimeOutOfRangeIsDamaged() throws {
        let item = StoredItem(representations: [StoredRepresentation(type: .utf8PlainText, chunks: [ByteBuffer(string: "x")])])
        for (sequence, changeCount, time) in [(Int.max, 1, 0.0), (1, Int.max, 0.0), (1, 1, 1e19), (1, 1, -1e300), (-1, 1, 0.0)] {
            let entry = HistoryEntry(sequence: sequence, changeCount: changeCount, time: time, items: [item])
            XCTAssertThrowsError(try HistoryArchive.decode(bytes(HistoryArchive.encoded(entry)), registry: .builtIn, source: "e.entry"),
                                 "\(sequence) \(changeCount) \(time)")
        }
        let fine = HistoryEntry(sequence: 9_999_999_999_999_999, changeCount: 3, time: 1_700_000_000.5, items: [item])
        XCTAssertEqual(try HistoryArchive.decode(bytes(HistoryArchive.encoded(fine)), registry: .builtIn, source: "e").sequence, 9_999_999_999_999_999)
    }
}

/// A history entry's header and a removal record, as earlier daemons wrote them through the
/// Codable encoder the members lists replaced: they read, and are written again byte for byte
/// (a fractional time in Swift's spelling, a whole one as an integer, as that encoder did), so
/// a daemon of either kind reads the other's history.
final class HistoryArchiveFormatTests: XCTestCase {
    private func whole(_ buffers: [ByteBuffer]) -> ByteBuffer {
        var bytes = ByteBuffer()
        for var buffer in buffers { bytes.writeBuffer(&buffer) }
        return bytes
    }

    private func header(of archive: [ByteBuffer], magic: [UInt8]) throws -> String {
        String(decoding: try ArchiveFile.decode(whole(archive), magic: magic, kind: "a test archive", source: "test").header, as: UTF8.self)
    }

    func testAHistoryEntryAsEarlierDaemonsWroteItReadsAndIsWrittenAgain() throws {
        for time in ["1763700000.25", "1763700000"] {
            let earlier = #"{"sequence":12,"changeCount":7,"time":"# + time
                + #","items":[{"representations":[{"type":"public.utf8-plain-text","kind":"data","size":5}]}]}"#
            let archive = ArchiveFile.encoded(magic: HistoryArchive.magic, header: Array(earlier.utf8), body: [ByteBuffer(string: "hello")])
            let entry = try HistoryArchive.decode(whole(archive), registry: .builtIn, source: "0000000000000012.entry")
            XCTAssertEqual(entry.sequence, 12)
            XCTAssertEqual(entry.changeCount, 7)
            XCTAssertEqual(entry.time, Double(time))
            XCTAssertEqual(entry.items.first?.representations.first?.type, .utf8PlainText)
            XCTAssertEqual(try header(of: HistoryArchive.encoded(entry), magic: HistoryArchive.magic), earlier)
        }
    }

    func testARemovalRecordIsTheSequencesAsBefore() throws {
        XCTAssertEqual(try header(of: JournalRecord.removal(of: [3, 9_999_999_999_999_999]), magic: JournalRecord.removalMagic),
                       #"{"sequences":[3,9999999999999999]}"#)
        guard case .historyRemoval(let sequences) = try JournalRecord.decode(
            whole(ArchiveFile.encoded(magic: JournalRecord.removalMagic, header: Array(#"{"sequences":[5,6]}"#.utf8), body: [])),
            registry: .builtIn, source: "journal")
        else { return XCTFail("not a removal") }
        XCTAssertEqual(sequences, [5, 6])
    }
}

@testable import PasteboardDaemon
import NIOCore
import PasteboardProtocol
import PasteboardJSON
import XCTest

/// The archive header every durable copy writes is written by hand; its bytes must be the ones
/// the Codable encoder writes, so archives read back (and older daemons' archives still read).
final class PasteboardArchiveTests: XCTestCase {
    func testHandWrittenHeaderMatchesTheCodableEncoderByteForByte() throws {
        let itemsJSON = #"""
            [
              {"representations": [{"type": "public.utf8-plain-text", "kind": "data", "size": 16}]},
              {"suggestedName": "a \"quoted\" \\ name\n\u0001 é 😀", "visibility": "own-process", "writerPID": -7,
               "representations": [
                 {"type": "public.png", "kind": "file", "size": 9, "path": "/tmp/a b.png", "openInPlace": true},
                 {"type": "com.example.x", "kind": "promise", "note": "gallery (pid 42)"},
                 {"type": "public.data", "kind": "unavailable", "size": 0, "note": ""}
               ]},
              {"representations": []}
            ]
            """#
        let items = try JSONTreeDecoder.decode([ArchivedItem].self, from: Array(itemsJSON.utf8))
        for header in [
            PasteboardArchive.Header(name: "general", changeCount: 0, items: []),
            PasteboardArchive.Header(name: "work-ü", changeCount: Int.max, items: items),
            PasteboardArchive.Header(name: "x", changeCount: -1, items: Array(items.prefix(1))),
            PasteboardArchive.Header(name: "soon", changeCount: 2, items: Array(items.prefix(1)), expiresAt: 1_700_000_000_123),
        ] {
            let handWritten = PasteboardArchive.headerJSON(header)
            XCTAssertEqual(String(decoding: handWritten, as: UTF8.self), String(decoding: try JSONBytesEncoder.encode(header), as: UTF8.self))
            let back = try JSONTreeDecoder.decode(PasteboardArchive.Header.self, from: handWritten)
            XCTAssertEqual(PasteboardArchive.headerJSON(back), handWritten)
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

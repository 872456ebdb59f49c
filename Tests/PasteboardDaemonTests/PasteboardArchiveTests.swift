@testable import PasteboardDaemon
import PasteboardProtocol
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

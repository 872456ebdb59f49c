import Foundation
import Logging
import NIOCore
@testable import PasteboardDaemon
import PasteboardTypes
import XCTest

/// The journal's bound: once it is full, writes go to files of their own, and everything
/// still reads back.
final class StorageWriterTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pbwriter-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func pasteboard(_ name: String, filledWith byte: UInt8) -> NamedPasteboard {
        let item = StoredItem(representations: [StoredRepresentation(type: .data, chunks: [ByteBuffer(repeating: byte, count: 40_000)])])
        return NamedPasteboard(name: name).replacing([item])
    }

    func testAWriteThatWouldPassTheJournalsBoundGoesToAFileOfItsOwn() async throws {
        let writer = StorageWriter(directory: directory, journalSizeLimit: 150_000)
        let names = ["a", "b", "c", "d", "e"]
        for (index, name) in names.enumerated() {
            try await writer.commit(StorageWriter.Work(pasteboard: pasteboard(name, filledWith: UInt8(index + 1))))
        }
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: directory + "/journal")[.size] as? Int)
        XCTAssertLessThanOrEqual(size, 150_000, "the journal, zeros written ahead included, stays within its bound")
        let files = names.filter { FileManager.default.fileExists(atPath: directory + "/\($0).pasteboard") }
        XCTAssertEqual(files, ["d", "e"], "the first three fit in the journal; the others went to files of their own")

        let restored = try DurableStorage(directory: directory).loadAll(registry: .builtIn, logger: Logger(label: "test"))
        XCTAssertEqual(restored.map(\.name).sorted(), names)
        for pasteboard in restored {
            let byte = UInt8(names.firstIndex(of: pasteboard.name)! + 1)
            guard case .data(let chunks) = pasteboard.items.first?.representations.first?.content else { return XCTFail("no data") }
            XCTAssertEqual(chunks.reduce(into: ByteBuffer()) { $0.writeImmutableBuffer($1) }, ByteBuffer(repeating: byte, count: 40_000))
        }
    }
}

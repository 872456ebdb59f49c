import NIOCore
@testable import PasteboardDaemon
import PasteboardTypes
import XCTest

/// The history's byte budget counts a stored file once, however many entries hold it: the
/// bytes are on disk once (issue 27's "a 4 GiB copy must not cost 8 GiB").
final class ContentHistoryStoredTests: SpoolTestCase {
    /// A stored file of `size` bytes as a representation; the file itself is never read here.
    private func stored(_ size: Int, in store: SpoolStore) throws -> StoredItem {
        let file = SpoolFile(id: SpoolFile.newID(), size: size, head: [], durable: true,
                             directory: try store.directory(), reclaimer: store.reclaimer)
        return StoredItem(representations: [StoredRepresentation(type: TypeIdentifier("public.data"), file: file)])
    }

    func testEntriesSharingAStoredFileCountItOnce() throws {
        let store = fixture.store()
        let big = try stored(10 << 20, in: store)
        var history = ContentHistory(limits: HistoryLimits(entries: 10, bytes: 15 << 20))
        XCTAssertNil(history.record([big], changeCount: 1, time: 1))
        XCTAssertNil(history.record([StoredItem(representations: [StoredRepresentation(type: .plainText, chunks: [ByteBuffer(string: "x")])])],
                                    changeCount: 2, time: 2))
        // The same stored copy again (a history entry restored and written anew): a new entry,
        // the same file.
        XCTAssertNil(history.record([big], changeCount: 3, time: 3))
        XCTAssertEqual(history.heldBytes, (10 << 20) + 1, "the shared file counted twice")
        XCTAssertEqual(history.entries.count, 2, "the restored copy moved to the top: \(history.entries.map(\.changeCount))")

        let other = try stored(10 << 20, in: store)
        XCTAssertNil(history.record([other], changeCount: 4, time: 4))
        XCTAssertEqual(history.entries.map(\.changeCount), [4], "a second 10 MiB file does not fit beside the first in 15 MiB: the oldest go")
        XCTAssertEqual(history.heldBytes, 10 << 20)
    }

    func testAnEntryLargerThanTheBudgetIsNotKept() throws {
        var history = ContentHistory(limits: HistoryLimits(entries: 10, bytes: 1 << 20))
        XCTAssertEqual(history.record([try stored(2 << 20, in: fixture.store())], changeCount: 1, time: 1), .overBudget)
        XCTAssertTrue(history.entries.isEmpty)
    }
}

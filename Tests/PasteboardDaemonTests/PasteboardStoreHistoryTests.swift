import Foundation
import Logging
@testable import PasteboardDaemon
import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes
import XCTest

/// The general pasteboard's history on the store: recorded by writes, restored, cleared, bounded.
final class PasteboardStoreHistoryTests: XCTestCase {
    private let general = PasteboardName.general

    private func historyPreviews(_ store: PasteboardStore) async throws -> [String?] {
        try await store.historyList().entries.map(\.preview)
    }

    func testWritesOfTheGeneralPasteboardAreRecordedNewestFirst() async throws {
        let store = PasteboardStore(registry: .builtIn)
        for text in ["one", "two", "three"] { try await store.replaceItems(of: general, with: [.text(text)]) }
        try await store.replaceItems(of: "notes", with: [.text("elsewhere")])
        let list = try await store.historyList()
        XCTAssertEqual(list.entries.map(\.preview), ["three", "two", "one"], "only the general pasteboard has a history")
        XCTAssertEqual(list.entries.map(\.index), [0, 1, 2])
        XCTAssertEqual(list.entries.map(\.changeCount), [3, 2, 1])
        XCTAssertEqual(list.entries.map(\.current), [true, nil, nil])
        let found = try await store.searchHistory("TW")
        XCTAssertEqual(found.entries.map(\.index), [1], "search ignores case and keeps the indices")
    }

    func testWhatTheHistoryDoesNotKeep() async throws {
        let store = PasteboardStore(registry: .builtIn)
        try await store.replaceItems(of: general, with: [.text("kept")])
        try await store.replaceItems(of: general, with: [.text("secret", sensitive: true)])
        try await store.replaceItems(of: general, with: [.text("expiring")], recordsHistory: false)
        try await store.replaceItems(of: general, with: [])
        try await store.replaceItems(of: general, with: [.text("kept")])
        let previews = try await historyPreviews(store)
        XCTAssertEqual(previews, ["kept"], "no secret, no expiring copy, no empty content; the same text again moves its entry up")
        let list = try await store.historyList()
        XCTAssertEqual(list.entries[0].changeCount, 5)
    }

    func testRestoringAnEntryWritesItAgainAsTheNewestEntry() async throws {
        let store = PasteboardStore(registry: .builtIn)
        for text in ["one", "two", "three"] { try await store.replaceItems(of: general, with: [.text(text)]) }
        let (_, changes, stop) = await store.watch(general)
        let changeCount = try await store.restoreHistoryEntry(2)
        XCTAssertEqual(changeCount, 4)
        let texts = await store.texts(of: general)
        XCTAssertEqual(texts, ["one"])
        let previews = try await historyPreviews(store)
        XCTAssertEqual(previews, ["one", "three", "two"])
        let unchanged = try await store.restoreHistoryEntry(0)
        XCTAssertEqual(unchanged, 4, "restoring the current content changes nothing")
        stop()
        var seen: [Int] = []
        for await change in changes { seen.append(change.changeCount) }
        XCTAssertEqual(seen, [4], "a restore is a write: its watchers see it once")
        await XCTAssertThrowsCode(.noSuchEntry, "its entries are 0 to 2") { _ = try await store.restoreHistoryEntry(3) }
        await XCTAssertThrowsCode(.invalidArgument, "'index' must be 0 or more") { _ = try await store.restoreHistoryEntry(-1) }
    }

    func testClearingForgetsTheEntriesButNotTheContent() async throws {
        let store = PasteboardStore(registry: .builtIn)
        for text in ["one", "two"] { try await store.replaceItems(of: general, with: [.text(text)]) }
        await store.clearHistory()
        let list = try await store.historyList()
        XCTAssertTrue(list.entries.isEmpty)
        let texts = await store.texts(of: general)
        XCTAssertEqual(texts, ["two"])
        await XCTAssertThrowsCode(.noSuchEntry, "the history is empty") { _ = try await store.restoreHistoryEntry(0) }
    }

    func testTheLimitsDropTheOldestEntries() async throws {
        let store = PasteboardStore(registry: .builtIn, historyLimits: HistoryLimits(entries: 2, bytes: 10))
        for text in ["a", "bb", "ccc"] { try await store.replaceItems(of: general, with: [.text(text)]) }
        var previews = try await historyPreviews(store)
        XCTAssertEqual(previews, ["ccc", "bb"], "two entries at most")
        try await store.replaceItems(of: general, with: [.text("more than ten bytes")])
        previews = try await historyPreviews(store)
        XCTAssertEqual(previews, ["ccc", "bb"], "a copy larger than the byte budget is not kept")
        try await store.replaceItems(of: general, with: [.text("dddddddd")])
        previews = try await historyPreviews(store)
        XCTAssertEqual(previews, ["dddddddd"], "the oldest go until the bytes fit")
        await store.setHistoryLimits(HistoryLimits(entries: 0, bytes: 10))
        previews = try await historyPreviews(store)
        XCTAssertEqual(previews, [], "new limits apply at once")
    }

    func testADurableHistoryComesBackAfterARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pbhistory-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = PasteboardStore(registry: .builtIn, storage: try DurableStorage(directory: directory))
        await store.restore(logger: Logger(label: "test"))  // as the daemon starts: this sets up the history's files
        for text in ["one", "two"] { try await store.replaceItems(of: general, with: [.text(text)]) }
        let restored = PasteboardStore(registry: .builtIn, storage: try DurableStorage(directory: directory))
        await restored.restore(logger: Logger(label: "test"))
        let previews = try await historyPreviews(restored)
        XCTAssertEqual(previews, ["two", "one"])
    }
}

import Foundation
import Logging
import NIOCore
@testable import PasteboardDaemon
import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes
import XCTest

/// The store's writes, summaries and watchers, without a connection.
final class PasteboardStoreWriteTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pbstore-\(UUID().uuidString.prefix(8))").path
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func testAWriteReplacesTheItemsAndCountsTheChange() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let first = try await store.replaceItems(of: "notes", with: [.text("one"), .text("two")])
        let second = try await store.replaceItems(of: "notes", with: [.text("three")])
        XCTAssertEqual([first, second], [1, 2])
        let texts = await store.texts(of: "notes")
        XCTAssertEqual(texts, ["three"])
        let untouched = await store.pasteboard(named: PasteboardName.general)
        XCTAssertEqual(untouched.changeCount, 0, "another pasteboard is untouched")
    }

    func testASummaryDescribesTheItemsWithoutTheirBytes() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let empty = await store.summary(of: "notes")
        XCTAssertEqual(empty, ItemsReply(pasteboard: "notes", changeCount: 0, items: []), "a pasteboard never written is empty")
        let owner = FakePromiseOwner("editor")
        try await store.replaceItems(of: "notes", with: [.text("hello"), .promised(by: owner, [(.png, 7)], size: 100)])
        let summary = await store.summary(of: "notes")
        XCTAssertEqual(summary.changeCount, 1)
        XCTAssertEqual(summary.items.count, 2)
        let text = try XCTUnwrap(summary.items.first?.representations.first)
        XCTAssertEqual(text.type, TypeIdentifier.utf8PlainText.rawValue)
        XCTAssertEqual(text.size, 5)
        XCTAssertEqual(text.mimeType, TypeRegistry.builtIn.preferredMIMEType(for: .utf8PlainText))
        XCTAssertNil(text.lazy)
        let promise = try XCTUnwrap(summary.items.last?.representations.first)
        XCTAssertEqual(promise.type, TypeIdentifier.png.rawValue)
        XCTAssertEqual(promise.size, 100)
        XCTAssertEqual(promise.lazy, true, "a promise is described as lazy")
        XCTAssertNil(promise.unavailable)
    }

    func testAConditionalWriteOnAChangedPasteboardFailsAndChangesNothing() async throws {
        let store = PasteboardStore(registry: .builtIn)
        try await store.replaceItems(of: "notes", with: [.text("first")])
        do {
            try await store.replaceItems(of: "notes", with: [.text("late")], ifChangeCount: 0, conflict: .fail)
            XCTFail("a write based on change count 0 replaced change count 1")
        } catch {
            XCTAssertEqual(error.code, .conflict)
            XCTAssertTrue(error.message.contains("change count 1, not 0"), error.message)
        }
        let ignored = try await store.replaceItems(of: "notes", with: [], ifChangeCount: 0)
        XCTAssertEqual(ignored, 1, "a clear based on an old count leaves the pasteboard and answers its count")
        let matching = try await store.replaceItems(of: "notes", with: [.text("second")], ifChangeCount: 1, conflict: .fail)
        XCTAssertEqual(matching, 2)
        let texts = await store.texts(of: "notes")
        XCTAssertEqual(texts, ["second"])
    }

    /// A write whose record cannot be stored (its own file's place is taken by a directory)
    /// is refused with `storage-failed`: the pasteboard, its watchers and the disk keep the
    /// previous content.
    func testAFailedStorageLeavesThePreviousContent() async throws {
        let storage = try DurableStorage(directory: directory)
        let store = PasteboardStore(registry: .builtIn, storage: storage)
        try await store.replaceItems(of: "notes", with: [.text("kept")])
        let (_, changes, stop) = await store.watch("notes")
        // Larger than a journal record may be, so it goes to a file of its own, which cannot be made.
        try FileManager.default.createDirectory(atPath: directory + "/notes.pasteboard", withIntermediateDirectories: false)
        let large = StoredItem(representations: [StoredRepresentation(type: .data, chunks: [ByteBuffer(repeating: 7, count: StorageWriter.journalRecordLimit + 1)])])
        do {
            try await store.replaceItems(of: "notes", with: [large])
            XCTFail("the write was not refused")
        } catch {
            XCTAssertEqual(error.code, .storageFailed)
            XCTAssertTrue(error.message.contains("pasteboard 'notes' was not changed"), error.message)
        }
        let notes = await store.pasteboard(named: "notes")
        XCTAssertEqual(notes.changeCount, 1)
        XCTAssertEqual(notes.items.map(\.text), ["kept"])
        try await store.replaceItems(of: "notes", with: [.text("next")])
        stop()
        var seen: [Int] = []
        for await change in changes { seen.append(change.changeCount) }
        XCTAssertEqual(seen, [2], "the refused write was never shown to a watcher")

        let restored = PasteboardStore(registry: .builtIn, storage: try DurableStorage(directory: directory))
        await restored.restore(logger: Logger(label: "test"))
        let texts = await restored.texts(of: "notes")
        XCTAssertEqual(texts, ["next"])
    }

    func testEveryWatcherSeesEachChangeOnceAndOnlyItsPasteboards() async throws {
        let store = PasteboardStore(registry: .builtIn)
        try await store.replaceItems(of: "notes", with: [.text("before")])
        let (current, changes, stop) = await store.watch("notes")
        let (otherCurrent, otherChanges, otherStop) = await store.watch("notes")
        XCTAssertEqual(current.changeCount, 1, "a watch starts with the content as it is")
        XCTAssertEqual(otherCurrent, current)
        try await store.replaceItems(of: "notes", with: [.text("a")])
        try await store.replaceItems(of: "elsewhere", with: [.text("not seen")])
        try await store.replaceItems(of: "notes", with: [])
        try await store.replaceItems(of: "notes", with: [.text("b")])
        stop()
        otherStop()
        for stream in [changes, otherChanges] {
            var seen: [ItemsReply] = []
            for await change in stream { seen.append(change) }
            XCTAssertEqual(seen.map(\.changeCount), [2, 3, 4])
            XCTAssertEqual(seen.map(\.items.count), [1, 0, 1])
            XCTAssertEqual(Set(seen.map(\.pasteboard)), ["notes"])
        }
    }

    /// A copy larger than the in-memory limit goes through a real spool: stored in `data/`
    /// as it arrives, held by the pasteboard as a stored file, read back whole after a restart.
    func testALargeWriteIsStoredInTheDataDirectoryAndSurvivesARestart() async throws {
        let storage = try DurableStorage(directory: directory)
        let store = PasteboardStore(registry: .builtIn, storage: storage)
        var configuration = DaemonConfiguration(socketPath: "")
        configuration.window = 8 << 20  // the whole copy in one window: no credit to wait for
        let bytes = SpoolFixture.pattern(1 << 20, seed: 3)
        let request = WriteRequest(pasteboard: "big", items: [ItemInfo(representations: [RepresentationInfo(type: "public.data", size: bytes.count)])])
        let assembly = try WriteAssembly(request, source: FakePromiseOwner("pb"), registry: store.registry, configuration: configuration,
                                         place: store.spoolPlace(forPasteboard: "big"))
        for (index, start) in stride(from: 0, to: bytes.count, by: 64 << 10).enumerated() {
            let end = min(start + (64 << 10), bytes.count)
            _ = try assembly.receive(.data(ByteBuffer(bytes: bytes[start..<end]), requestID: 1, end: end == bytes.count))
            XCTAssertEqual(assembly.isComplete, end == bytes.count, "frame \(index)")
        }
        try await store.replaceItems(of: "big", with: try await assembly.finish())

        let held = await store.pasteboard(named: "big")
        guard case .stored(let file) = held.items.first?.representations.first?.content else {
            return XCTFail("a 1 MiB copy is not held as a stored file: \(String(describing: held.items.first?.representations.first?.content))")
        }
        XCTAssertEqual(file.size, bytes.count)
        let names = try FileManager.default.contentsOfDirectory(atPath: SpoolStore.directory(inStateDirectory: directory))
        XCTAssertEqual(names, [file.id + SpoolFile.suffix])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: SpoolStore.directory(inStateDirectory: directory) + "/" + names[0])), Data(bytes))

        let restored = PasteboardStore(registry: .builtIn, storage: try DurableStorage(directory: directory))
        await restored.restore(logger: Logger(label: "test"))
        let again = await restored.pasteboard(named: "big")
        guard case .stored(let restoredFile) = again.items.first?.representations.first?.content else {
            return XCTFail("the stored copy did not come back as a stored file")
        }
        XCTAssertEqual(restoredFile.id, file.id)
        XCTAssertEqual(restoredFile.size, bytes.count)
    }
}

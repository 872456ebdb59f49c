import Logging
import NIOCore
@testable import PasteboardDaemon
import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes
import XCTest

/// Promises on the store, with a fake owner: found by owner, settled, made unavailable when
/// the owner goes, released when they leave the pasteboard, and captured before the owner leaves.
final class PasteboardStorePromiseTests: XCTestCase {
    func testPromisesAreFoundByTheirOwnerInOrder() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let editor = FakePromiseOwner("editor"), other = FakePromiseOwner("other")
        try await store.replaceItems(of: "notes", with: [.text("eager"), .promised(by: editor, [(.png, 1), (.plainText, 2)], size: 10)])
        try await store.replaceItems(of: "b", with: [.promised(by: other, [(.png, 1)])])
        try await store.replaceItems(of: "a", with: [.promised(by: editor, [(.html, 3)])])
        let owned = await store.promises(ownedBy: editor)
        XCTAssertEqual(owned.map(\.pasteboard), ["a", "notes", "notes"], "by pasteboard name, then item, then fidelity")
        XCTAssertEqual(owned.map(\.promise.id), [3, 1, 2])
        XCTAssertEqual(owned.map(\.item), [0, 1, 1])
        XCTAssertEqual(owned.map(\.representation), [0, 0, 1])
        XCTAssertEqual(owned.map(\.type), [.html, .png, .plainText])
        XCTAssertEqual(owned.map(\.size), [nil, 10, 10])
        let others = await store.promises(ownedBy: other)
        XCTAssertEqual(others.map(\.pasteboard), ["b"], "an owner is told apart by identity, not by its promise numbers")
    }

    func testASettledPromiseHoldsItsBytes() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let editor = FakePromiseOwner("editor")
        try await store.replaceItems(of: "notes", with: [.promised(by: editor, [(.utf8PlainText, 1)])])
        let owned = try await XCTUnwrapAsync(await store.promises(ownedBy: editor).first)
        await store.settle(owned, with: .data([ByteBuffer(string: "settled")]), size: 7)
        let notes = await store.pasteboard(named: "notes")
        XCTAssertEqual(notes.changeCount, 1, "settling changes where the bytes come from, not the content")
        XCTAssertEqual(notes.items.map(\.text), ["settled"])
        let summary = await store.summary(of: "notes")
        XCTAssertNil(summary.items[0].representations[0].lazy)
        XCTAssertEqual(summary.items[0].representations[0].size, 7)
        let left = await store.promises(ownedBy: editor)
        XCTAssertTrue(left.isEmpty)
    }

    func testASettleOfContentThatWasReplacedMeanwhileChangesNothing() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let editor = FakePromiseOwner("editor")
        try await store.replaceItems(of: "notes", with: [.promised(by: editor, [(.utf8PlainText, 1)])])
        let owned = try await XCTUnwrapAsync(await store.promises(ownedBy: editor).first)
        try await store.replaceItems(of: "notes", with: [.promised(by: editor, [(.utf8PlainText, 1)])])
        await store.settle(owned, with: .data([ByteBuffer(string: "stale")]), size: 5)
        let notes = await store.pasteboard(named: "notes")
        XCTAssertNotNil(notes.items[0].representations[0].promise, "the new content's promise is not the old one, though its number is the same")
    }

    func testWhenTheOwnerIsGoneItsPromisesAreUnavailableWithTheReason() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let editor = FakePromiseOwner("editor"), other = FakePromiseOwner("other")
        try await store.replaceItems(of: "notes", with: [
            StoredItem(representations: [
                StoredRepresentation(type: .png, content: .promise(.init(owner: editor, id: 1)), size: nil),
                StoredRepresentation(type: .html, content: .promise(.init(owner: other, id: 1)), size: nil),
                StoredRepresentation(type: .utf8PlainText, chunks: [ByteBuffer(string: "eager")]),
            ]),
        ])
        await store.clientGone(editor) { owned in "\(editor) left without \(owned.type) (item \(owned.item) of '\(owned.pasteboard)')" }
        let representations = await store.pasteboard(named: "notes").items[0].representations
        XCTAssertEqual(representations[0].unavailableReason, "editor (pid 4242) left without public.png (item 0 of 'notes')")
        XCTAssertNotNil(representations[1].promise, "another owner's promise stays")
        XCTAssertEqual(representations[2].text, "eager")
        let summary = await store.summary(of: "notes")
        XCTAssertEqual(summary.items[0].representations.map(\.unavailable), [true, nil, nil])
        XCTAssertEqual(summary.items[0].representations.map(\.lazy), [nil, true, nil])
    }

    func testPromisesThatLeaveThePasteboardAreReleasedToTheirOwner() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let editor = FakePromiseOwner("editor")
        try await store.replaceItems(of: "notes", with: [.promised(by: editor, [(.png, 7), (.html, 8)]), .promised(by: editor, [(.png, 9)])])
        try await store.replaceItems(of: "notes", with: [.text("replaced")])
        let released = await editor.nextReleased()
        XCTAssertEqual(released, [7, 8, 9], "one notification with every promise that left")
    }

    func testAPromiseOfAFailedWriteIsReleasedAtOnce() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let editor = FakePromiseOwner("editor")
        try await store.replaceItems(of: "notes", with: [.text("first")])
        let refused: [StoredItem] = [.promised(by: editor, [(.png, 5)])]
        do {
            try await store.replaceItems(of: "notes", with: refused, ifChangeCount: 0, conflict: .fail)
            XCTFail("the conflict was not seen")
        } catch {
            XCTAssertEqual(error.code, .conflict)
        }
        await store.notifyReleased(refused)  // as the connection does with a refused write's items
        let released = await editor.nextReleased()
        XCTAssertEqual(released, [5])
    }

    /// A source that relinquishes: each promise is produced once and settled with the bytes it
    /// produced; one over the capture budget becomes unavailable saying so, without being asked for.
    func testACaptureSettlesEachPromiseWithTheBytesItsOwnerProduced() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let editor = FakePromiseOwner("editor", payloads: [1: Array("captured text".utf8), 2: Array("<b>x</b>".utf8)])
        try await store.replaceItems(of: PasteboardName.general, with: [
            .promised(by: editor, [(.utf8PlainText, 1), (.html, 2)]),
            StoredItem(representations: [StoredRepresentation(type: .png, content: .promise(.init(owner: editor, id: 3)), size: 1 << 20)]),
        ])
        let capture = OwnerCapture(source: editor, store: store, budget: 64 << 10, logger: Logger(label: "test"))
        let captured = await capture.run()
        XCTAssertEqual(captured, 2)
        XCTAssertEqual(editor.produced.map(\.promise), [1, 2], "the promise over the budget is not asked for")
        XCTAssertEqual(editor.produced.map(\.capture), [true, true])
        XCTAssertEqual(editor.finished, [.ok(OK()), .ok(OK())])
        let items = await store.pasteboard(named: PasteboardName.general).items
        XCTAssertEqual(items[0].representations.map(\.text), ["captured text", "<b>x</b>"])
        let reason = try XCTUnwrap(items[1].representations[0].unavailableReason)
        XCTAssertTrue(reason.contains("capture budget of pasteboard 'general'"), reason)
        let left = await store.promises(ownedBy: editor)
        XCTAssertTrue(left.isEmpty)

        let history = try await store.historyList()
        XCTAssertEqual(history.entries.count, 1)
        XCTAssertEqual(history.entries[0].items[0].representations.map(\.lazy), [nil, nil], "the history keeps the captured bytes too")
        XCTAssertEqual(history.entries[0].items.count, 1, "and leaves out what became unavailable")
    }

    func testAPromiseItsOwnerCannotProduceIsUnavailableAfterACapture() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let editor = FakePromiseOwner("editor")
        try await store.replaceItems(of: "notes", with: [.promised(by: editor, [(.png, 4)])])
        let captured = await OwnerCapture(source: editor, store: store, budget: 1 << 20, logger: Logger(label: "test")).run()
        XCTAssertEqual(captured, 0)
        let notes = await store.pasteboard(named: "notes")
        let reason = try XCTUnwrap(notes.items[0].representations[0].unavailableReason)
        XCTAssertTrue(reason.contains("editor (pid 4242) left without handing over public.png"), reason)
    }
}

/// `XCTUnwrap` of a value an `await` gives.
func XCTUnwrapAsync<T>(_ value: @autoclosure () async throws -> T?, file: StaticString = #filePath, line: UInt = #line) async throws -> T {
    let value = try await value()
    return try XCTUnwrap(value, file: file, line: line)
}

import Foundation
import Pasteboard
import XCTest

/// An app type with a date: its own JSON type (dates as ISO 8601 by default), and plain text both ways.
struct Memo: Transferable, Codable, Equatable {
    var text: String
    var written: Date

    static let type = TypeIdentifier(rawValue: "com.example.tests.memo")
    static let declaration = TypeDeclaration(identifier: type, conformsTo: [.json], description: "A test memo")

    static var transferRepresentations: [TransferRepresentation<Memo>] {
        [
            .codable(contentType: type),
            .proxy(exporting: { $0.text }, importing: { Memo(text: $0, written: .distantPast) }),
        ]
    }
}

/// A view model that streams, serves and drops from the main actor, updating its own state.
@MainActor
final class SourceViewModel {
    var chunks = 0
    var streamed: [UInt8] = []
    var events: [String] = []
    var loadedType: TypeIdentifier?

    /// A streaming load whose chunk closure appends to main-actor state.
    func stream(socketPath: String) async throws -> LoadedRepresentation {
        try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: "viewmodel", autoStart: false) { connection in
            try await Pasteboard(connection: connection).load(accepting: [.plainText], header: { self.loadedType = $0.type }) { chunk in
                self.chunks += 1
                self.streamed += chunk
            }
        }
    }

    /// A live source whose events land in main-actor state; it stops once `stop` is called.
    func serve(_ memo: Memo, socketPath: String, stop: @escaping @Sendable () async -> Void) async throws -> LiveSource.Outcome {
        var provider = ItemProvider()
        provider.register(memo)
        var source = LiveSource(items: [provider], socketPath: socketPath, clientName: "viewmodel")
        source.autoStart = false
        source.declaredTypes = [Memo.declaration]
        return try await source.run(until: stop) { event in self.events.append("\(event)") }
    }
}

final class LibraryConvenienceTests: IntegrationTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    func testOneCallCopyAndPasteOfATransferable() async throws {
        let written = Date(timeIntervalSince1970: 1_764_000_000)
        let memo = Memo(text: "buy milk", written: written)
        let copied = try await Pasteboard.copy(memo, clientName: "memos", declaring: [Memo.declaration], socketPath: sandbox.socketPath)
        XCTAssertEqual(try changeCount(), copied)

        // The connection closed: the lazy exports were captured, so pb and a new paste get them.
        XCTAssertEqual(try pbOK("paste", "-t", "text").stdout, Data("buy milk".utf8))
        let json = try pbOK("paste", "-t", Memo.type.rawValue).stdout
        XCTAssertTrue(String(decoding: json, as: UTF8.self).contains("\"written\":\"2025-11-24T16:00:00Z\""),
                      "dates go out as ISO 8601: \(String(decoding: json, as: UTF8.self))")
        let pasted = try await Pasteboard.paste(Memo.self, clientName: "memos", declaring: [Memo.declaration], socketPath: sandbox.socketPath)
        XCTAssertEqual(pasted, memo)
    }

    func testAConfigurationSetOnceServesEveryOneCallCopyAndPaste() async throws {
        let memos = PasteboardConnection.Configuration(clientName: "memos", declaring: [Memo.declaration], autoStart: false, socketPath: sandbox.socketPath)
        let memo = Memo(text: "call the plumber", written: Date(timeIntervalSince1970: 1_764_000_000))
        try await Pasteboard.copy(memo, using: memos)
        let pasted = try await Pasteboard.paste(Memo.self, using: memos)
        XCTAssertEqual(pasted, memo)
        XCTAssertTrue(try pbOK("types", Memo.type.rawValue).stdoutText.contains("  source: declared by memos\n"), "the configuration's types were declared")
        // autoStart false: with no daemon listening, a clear error and no daemon started.
        stopDaemon()
        do {
            _ = try await Pasteboard.paste(Memo.self, using: memos)
            XCTFail("a paste reached a daemon that was stopped")
        } catch let error as PasteboardError {
            guard case .daemonUnreachable = error else { return XCTFail("\(error)") }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.socketPath), "no daemon was started")
    }

    func testAPasteSaysWhichRepresentationItWasMadeFrom() async throws {
        try pbOK("copy", stdin: Data("only text".utf8))
        let (memo, representation) = try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "memos", declaring: [Memo.declaration], autoStart: false) { connection in
            try await Pasteboard(connection: connection).loadWithRepresentation(Memo.self)
        }
        XCTAssertEqual(memo.text, "only text")
        XCTAssertTrue(connectionRegistry().conforms(representation.type, to: .plainText), "fell back to \(representation.type)")
        XCTAssertNotEqual(representation.type, Memo.type)
    }

    func testPasteOfAnEmptyPasteboardIsNoSuchItem() async throws {
        do {
            _ = try await Pasteboard.paste(String.self, from: "empty", clientName: "memos", socketPath: sandbox.socketPath)
            XCTFail("pasted from an empty pasteboard")
        } catch let error as PasteboardError {
            XCTAssertEqual(error.code, .noSuchItem, "\(error)")
        }
    }

    @MainActor
    func testAStreamingLoadFromTheMainActorUpdatesItsState() async throws {
        let text = String(repeating: "0123456789", count: 100_000)  // 1 MB: several chunks
        try pbOK("copy", stdin: Data(text.utf8))
        let model = SourceViewModel()
        let representation = try await model.stream(socketPath: sandbox.socketPath)
        XCTAssertEqual(model.streamed.count, text.utf8.count)
        XCTAssertEqual(String(decoding: model.streamed, as: UTF8.self), text)
        XCTAssertGreaterThan(model.chunks, 1)
        XCTAssertEqual(model.loadedType, representation.type)
        XCTAssertEqual(representation.size, text.utf8.count)
    }

    func testALiveSourceRunFromTheMainActorReportsEventsAndEndsWhenReplaced() async throws {
        let model = SourceViewModel()
        let socketPath = sandbox.socketPath
        let serving = Task { @MainActor in
            try await model.serve(Memo(text: "served", written: .distantPast), socketPath: socketPath, stop: { try? await Task.sleep(for: .seconds(60)) })
        }
        try waitForLazyItems()  // blocks this (non-main) thread only; the source serves on the main actor
        XCTAssertEqual(try pbOK("paste", "-t", "text").stdout, Data("served".utf8))
        try pbOK("copy", stdin: Data("replaced".utf8))
        let outcome = try await serving.value
        XCTAssertEqual(outcome, .released)
        let events = await model.events
        XCTAssertEqual(events.count, 1, "\(events)")
        XCTAssertTrue(events.first?.hasPrefix("copied") == true, "\(events)")
    }

    func testAScopedDropFinishesBySuccessOrByTheBodysError() async throws {
        let outcomes = try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "memos", declaring: [Memo.declaration], autoStart: false) { connection in
            var results: [DragEvent] = []
            for attempt in ["loads", "throws"] {
                var item = ItemProvider()
                item.register(Memo(text: attempt, written: .distantPast))
                let session = try await DragSession.begin(with: [item], allowing: [.copy], on: connection)
                let found = try await DropSession.current(on: connection)
                struct Refused: Error, CustomStringConvertible { var description: String { "the list is full" } }
                do {
                    let memo = try await found.perform(.copy) { drop -> Memo in
                        let memo = try await drop.load(Memo.self, item: 0)
                        if attempt == "throws" { throw Refused() }
                        return memo
                    }
                    XCTAssertEqual(memo?.text, "loads")
                } catch is Refused {
                    XCTAssertEqual(attempt, "throws")
                }
                results.append(try await session.outcome())
            }
            return results
        }
        guard case .finished(.copy, _, _) = outcomes[0] else { return XCTFail("first drop: \(outcomes[0])") }
        guard case .failed(let reason) = outcomes[1] else { return XCTFail("second drop: \(outcomes[1])") }
        XCTAssertTrue(reason.contains("the list is full"), reason)
    }

    /// The registry a connection here would have (built-in types; the tests declare their own).
    private func connectionRegistry() -> TypeRegistry {
        TypeRegistry.loading(environment: sandbox.environment()).registry
    }
}

extension LibraryConvenienceTests {
    func testAPasteboardUsedAfterItsConnectionClosedFailsClearly() async throws {
        let escaped = try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "escaper", autoStart: false) {
            Pasteboard(connection: $0)
        }
        do {
            _ = try await escaped.contents()
            XCTFail("a closed connection answered")
        } catch let error as PasteboardError {
            XCTAssertEqual(error.description, "lost the connection to pasteboardd: the connection was closed when the body of withConnection returned: use it only inside that body")
        }
        do {
            try await escaped.setItems([ItemProvider()])
            XCTFail("a closed connection took a write")
        } catch let error as PasteboardError {
            XCTAssertTrue(error.description.hasSuffix("use it only inside that body"), error.description)
        }
    }
}

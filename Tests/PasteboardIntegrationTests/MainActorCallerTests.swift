import Foundation
import Pasteboard
import PasteboardTypes
import XCTest

/// A view model as an app writes one: main-actor state updated from the library's closures,
/// which need no `@Sendable` (Swift 6 mode: this file compiling is half the test).
@MainActor
final class PasteViewModel {
    var fraction: Double = 0
    var reports = 0
    var text = ""
    var events: [String] = []

    func paste(socketPath: String) async throws {
        text = try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: "viewmodel", autoStart: false) { connection in
            let (_, bytes) = try await Pasteboard(connection: connection).loadData(accepting: [.plainText]) { progress in
                self.fraction = progress.fractionCompleted ?? 0
                self.reports += 1
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// A file load and a Transferable load, each reporting to main-actor state.
    func pasteAgain(socketPath: String) async throws -> (file: String, string: String) {
        try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: "viewmodel", autoStart: false) { connection in
            let pasteboard = Pasteboard(connection: connection)
            let file = try await pasteboard.loadFile(accepting: [.plainText]) { _ in self.reports += 1 }
            let string = try await pasteboard.load(String.self) { _ in self.reports += 1 }
            return (try String(contentsOfFile: file.path, encoding: .utf8), string)
        }
    }

    /// A drag's events, recorded on the main actor (compiled here; the drag tests run drags).
    func follow(_ session: DragSession) async throws {
        _ = try await session.outcome { event in self.events.append("\(event)") }
    }
}

final class MainActorCallerTests: IntegrationTestCase {
    @MainActor
    func testAMainActorViewModelLoadsAndUpdatesItsState() async throws {
        try pbOK("copy", stdin: Data("from the main actor".utf8))
        let model = PasteViewModel()
        try await model.paste(socketPath: sandbox.socketPath)
        XCTAssertEqual(model.text, "from the main actor")
        XCTAssertEqual(model.fraction, 1)
        XCTAssertGreaterThan(model.reports, 0)

        let before = model.reports
        let again = try await model.pasteAgain(socketPath: sandbox.socketPath)
        XCTAssertEqual(again.file, "from the main actor")
        XCTAssertEqual(again.string, "from the main actor")
        XCTAssertGreaterThan(model.reports, before)
    }
}

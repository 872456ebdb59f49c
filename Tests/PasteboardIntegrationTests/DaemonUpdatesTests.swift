import Foundation
import Pasteboard
import XCTest

/// What the library follows of the daemon as it changes: its type declarations
/// (`PasteboardConnection.typeRegistries()`) and the drag sessions in flight
/// (`DropSession.updates(on:)`), each from one watch the daemon answers at every change.
final class DaemonUpdatesTests: IntegrationTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    func testTheRegistryIsTheDaemonsNowAndAfterEachDeclaration() async throws {
        let note = TypeDeclaration(identifier: "com.example.note", conformsTo: [.json], mimeTypes: ["application/vnd.example.note+json"])
        try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "follower", autoStart: false) { connection in
            var registries = connection.typeRegistries().makeAsyncIterator()
            let next = try await registries.next(isolation: #isolation)
            let first = try XCTUnwrap(next)
            XCTAssertNil(first.declaration(for: "com.example.note"), "not declared yet")
            XCTAssertEqual(first.type(forMIMEType: "image/png"), .png)
            // Another app declares its type: the next registry has it, with its MIME type.
            try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "notes", declaring: [note], autoStart: false) { _ in }
            let after = try await registries.next(isolation: #isolation)
            let second = try XCTUnwrap(after)
            XCTAssertEqual(second.declaration(for: "com.example.note"), note)
            XCTAssertEqual(second.type(forMIMEType: "application/vnd.example.note+json"), "com.example.note")
            XCTAssertTrue(second.conforms("com.example.note", to: .text))
        }
    }

    func testADestinationHearsSessionsBeginGrowAndEnd() async throws {
        func item(_ text: String, named name: String) -> ItemProvider {
            var item = ItemProvider()
            item.registerData(Array(text.utf8), for: .utf8PlainText)
            item.suggestedName = name
            return item
        }
        let socket = sandbox.socketPath
        try await PasteboardConnection.withConnection(socketPath: socket, clientName: "destination", autoStart: false) { destination in
            var updates = DropSession.updates(on: destination).makeAsyncIterator()
            try await PasteboardConnection.withConnection(socketPath: socket, clientName: "source", autoStart: false) { source in
                let session = try await DragSession.begin(with: [item("first", named: "first.txt")], on: source)
                guard case .began(let began)? = try await updates.next(isolation: #isolation) else { return XCTFail("no session began") }
                XCTAssertEqual(began.id, session.id)
                XCTAssertEqual(began.sourceApp, "source")
                XCTAssertEqual(began.items.map(\.suggestedName), ["first.txt"])

                // A second source adds an item while the session is in flight.
                try await PasteboardConnection.withConnection(socketPath: socket, clientName: "adder", autoStart: false) { adder in
                    let added = try await DragSession.add([item("second", named: "second.txt")], to: session.id, on: adder)
                    guard case .changed(let grown)? = try await updates.next(isolation: #isolation) else { return XCTFail("the added item was not told") }
                    XCTAssertEqual(grown.items.map(\.suggestedName), ["first.txt", "second.txt"])
                    // The source abandons the drag: the session ends for every participant.
                    session.cancel()
                    guard case .ended(let ended)? = try await updates.next(isolation: #isolation) else { return XCTFail("the abandoned session did not end") }
                    XCTAssertEqual(ended, session.id)
                    _ = try await added.outcome()
                }
            }
        }
    }
}

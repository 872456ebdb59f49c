import Foundation
import Pasteboard
import PasteboardTypes
import TestSupport
import XCTest

/// Drag-session semantics: this test process as one side through the client library (or a
/// raw socket), real `pb` and `gallery` processes as the other.
final class DragSessionTests: DragDropTestCase {
    private func withConnection<R: Sendable>(app: String? = nil, _ body: (PasteboardConnection) async throws -> R) async throws -> R {
        try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "tests", app: app, autoStart: false, body)
    }

    func testMoveDeletesTheOriginalOnlyAfterFinish() async throws {
        let pngs = try addImages(["only"])
        let (source, id) = try startGalleryDrag("0")
        try await withConnection { connection in
            let session = try await DropSession.current(on: connection)
            XCTAssertEqual(session.id, id)
            XCTAssertTrue(session.hasItems(conformingTo: [.image]))
            XCTAssertTrue(session.canLoad(String.self))
            let performed = try await session.perform(.move)
            let drop = try XCTUnwrap(performed)
            XCTAssertEqual(drop.operation, .move)
            XCTAssertEqual(try self.titles(), ["only"], "a drop is not acceptance: nothing is deleted yet")
            let (_, bytes) = try await drop.loadData(item: 0, accepting: [.png])
            XCTAssertEqual(Data(bytes), pngs[0])
            XCTAssertEqual(try self.titles(), ["only"], "loading is not acceptance either")
            try await drop.finish()
        }
        let end = try outcome(of: source)
        XCTAssertEqual(end.stdout, "move")
        XCTAssertEqual(try titles(), [])
        XCTAssertEqual(files(in: "a.images"), [])
    }

    func testADesktopSessionIsVisibleAsSuchAndCannotBeRestricted() async throws {
        try await withConnection(app: "notes") { connection in
            var item = ItemProvider()
            item.registerData(Array("hello".utf8), for: .utf8PlainText)
            do {
                _ = try await DragSession.begin(with: [item], restrictedToApp: true, showOnDesktop: true, on: connection)
                XCTFail("a restricted session was shown on the desktop")
            } catch let error as PasteboardError {
                XCTAssertEqual(error.code, .invalidArgument)
                XCTAssertTrue(error.description.contains("cannot be shown on the desktop"), error.description)
            }
            let session = try await DragSession.begin(with: [item], showOnDesktop: true, on: connection)
            let seen = try await DropSession.session(session.id, on: connection)
            XCTAssertTrue(seen.isShownOnDesktop)
            session.cancel()
        }
        let listed = try pbOK("sessions", "--json").stdoutText
        XCTAssertFalse(listed.contains("\"desktop\""), "the cancelled session is gone: \(listed)")
    }

    func testADesktopDropIntoAZoneReachesOnlyTheDestinationWaitingThere() async throws {
        let socket = sandbox.socketPath
        let waiting = Task {
            try await PasteboardConnection.withConnection(socketPath: socket, clientName: "waiter", autoStart: false) { connection in
                let session = try await DropSession.fromDesktop(title: "inbox", accepting: [.png], on: connection)
                let performed = try await session.perform(.copy)
                let drop = try XCTUnwrap(performed)
                let (_, bytes) = try await drop.loadData(item: 0, accepting: [.utf8PlainText])
                try await drop.finish()
                return String(decoding: bytes, as: UTF8.self)
            }
        }
        try await withConnection { bridge in
            // The bridge's view: the zone appears in the lists, with its title and types.
            var zone: DropZone?
            for try await (_, zones) in DropSession.desktopLists(on: bridge) {
                if let found = zones.first { zone = found; break }
            }
            let open = try XCTUnwrap(zone)
            XCTAssertEqual(open.title, "inbox")
            XCTAssertEqual(open.accepted, [.png])
            var item = ItemProvider()
            item.registerData(Array("from the desktop".utf8), for: .utf8PlainText)
            do {
                _ = try await DragSession.begin(with: [item], allowing: [.copy], zone: open.id + 100, on: bridge)
                XCTFail("a drop into a zone that is not open was lifted")
            } catch let error as PasteboardError {
                XCTAssertEqual(error.code, .invalidArgument)
            }
            let session = try await DragSession.begin(with: [item], allowing: [.copy], zone: open.id, on: bridge)
            let sessions = try pbOK("sessions").stdoutText
            XCTAssertFalse(sessions.contains("drag session \(session.id)") || sessions.contains("from the desktop"), "another client saw it: \(sessions)")
            if case .finished(.copy, _, _) = try await session.outcome() {} else { XCTFail("the drop did not finish as a copy") }
        }
        let received = try await waiting.value
        XCTAssertEqual(received, "from the desktop")
    }

    func testADestinationThatLeavesWithoutFinishingFailsTheDrop() async throws {
        try addImages(["kept"])
        let (source, _) = try startGalleryDrag("0")
        try await withConnection { connection in
            _ = try await DropSession.current(on: connection).perform(.move)
        }
        let end = try outcome(of: source)
        XCTAssertEqual(end.status, 1)
        XCTAssertEqual(end.stdout, "failed")
        XCTAssertTrue(source.stderrLines.contains { $0.contains("went away before finishing the drop") }, "\(source.stderrLines)")
        XCTAssertEqual(try titles(), ["kept"], "a failed move keeps the original")
    }

    func testOnlyTheDestinationThatDroppedMayLoadAndOnlyOneWins() async throws {
        try Data("payload".utf8).write(to: URL(fileURLWithPath: sandbox.path("p.txt")))
        let (source, id) = try startPBDrag(sandbox.path("p.txt"))
        let raw = try RawClient(socketPath: sandbox.socketPath)
        defer { raw.close() }
        _ = try raw.hello()
        try raw.sendMessage(["op": "read", "session": id, "item": 0, "accept": []], requestID: 1)
        XCTAssertEqual(try raw.receive()?.json?["code"] as? String, "permission-denied", "no data before the drop")
        try raw.sendMessage(["op": "read", "item": 0, "accept": []], requestID: 4)
        XCTAssertEqual(try raw.receive()?.json?["message"] as? String, "'read' needs a pasteboard or a session")
        try await withConnection { connection in
            let session = try await DropSession.session(id, on: connection)
            XCTAssertEqual(session.items.first?.suggestedName, "p.txt")
            let performed = try await session.perform(.copy)
            let drop = try XCTUnwrap(performed)
            try raw.sendMessage(["op": "read", "session": id, "item": 0, "accept": []], requestID: 2)
            let refused = try raw.receive()?.json
            XCTAssertEqual(refused?["code"] as? String, "permission-denied")
            XCTAssertEqual(refused?["message"] as? String, "the data of drag session \(id) is loadable only by the destination that dropped it")
            try raw.sendMessage(["op": "drop", "session": id, "operation": "copy"], requestID: 3)
            let second = try raw.receive()?.json
            XCTAssertEqual(second?["code"] as? String, "no-such-session")
            XCTAssertTrue((second?["message"] as? String)?.contains("already dropped") == true, "\(second ?? [:])")
            let loaded = try await drop.loadData(item: 0, accepting: [.plainText])
            XCTAssertEqual(loaded.bytes, Array("payload".utf8))
            try await drop.finish()
        }
        XCTAssertEqual(try outcome(of: source).stdout, "copy")
    }

    func testItemsAddedInFlightFollowAndBothSourcesHearTheEnd() throws {
        try Data("first".utf8).write(to: URL(fileURLWithPath: sandbox.path("first.txt")))
        try Data("second".utf8).write(to: URL(fileURLWithPath: sandbox.path("second.txt")))
        let (source, id) = try startPBDrag(sandbox.path("first.txt"))
        let adder = try start("pb", ["drag", "--add", String(id), sandbox.path("second.txt")])
        XCTAssertEqual(try sessionID(of: adder), id)
        XCTAssertEqual(adder.stderrLines.first, "pb: drag session \(id): 1 item added to the session; drop with 'pb drop --session \(id)'",
                       "added items are not said to be lifted")
        XCTAssertTrue(source.stderrLines.contains { $0.hasSuffix("1 item lifted; drop with 'pb drop --session \(id)'") }, "\(source.stderrLines)")
        let listing = try pbOK("sessions", "--json")
        let sessions = try XCTUnwrap(JSONSerialization.jsonObject(with: listing.stdout) as? [[String: Any]])
        XCTAssertEqual((sessions.first?["items"] as? [[String: Any]])?.compactMap { $0["suggestedName"] as? String }, ["first.txt", "second.txt"])
        // A directory that does not exist is named as such, and the session stays for a drop.
        let missing = try pb("drop", "-o", sandbox.path("in"))
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("\(sandbox.path("in")) is not an existing directory"), missing.stderr)
        try FileManager.default.createDirectory(atPath: sandbox.path("in"), withIntermediateDirectories: true)
        try pbOK("drop", "-o", sandbox.path("in"))
        XCTAssertEqual(try String(contentsOfFile: sandbox.path("in/first.txt"), encoding: .utf8), "first")
        XCTAssertEqual(try String(contentsOfFile: sandbox.path("in/second.txt"), encoding: .utf8), "second")
        XCTAssertEqual(try outcome(of: source).stdout, "copy")
        XCTAssertEqual(try outcome(of: adder).stdout, "copy")
        let late = try pb("drag", "--add", String(id), sandbox.path("second.txt"))
        XCTAssertEqual(late.status, 1)
        XCTAssertTrue(late.stderr.contains("drag session \(id) already ended: finished (copy)"), late.stderr)
    }

    func testALargeDraggedItemIsScratchOnDiskAndGoesWithItsSession() throws {
        let source = try randomFile("large.bin", size: 8 << 20)
        let data = sandbox.stateDirectory + "/data"
        let stored = { ((try? FileManager.default.contentsOfDirectory(atPath: data)) ?? []).count }
        // From stdin, the item's bytes are uploaded with the drag (a FILE argument is read only
        // when dropped).
        let drag = try start("/bin/sh", ["-c", "exec \"$0\" drag < \"$1\"", Binaries.url("pb").path, source])
        _ = try sessionID(of: drag)
        XCTAssertEqual(stored(), 1, "the dragged 8 MiB are stored on disk, not in the daemon's memory")
        try pbOK("drop", "-o", sandbox.path("dropped.bin"))
        XCTAssertEqual(try outcome(of: drag).stdout, "copy")
        XCTAssertEqual(try runTool("/usr/bin/cmp", [source, sandbox.path("dropped.bin")], environment: sandbox.environment(), in: sandbox).status, 0)
        XCTAssertTrue(eventually { stored() == 0 }, "the ended session's stored bytes stay on disk")
    }

    func testMoveBecomesCopyWhenTheSourceAllowsOnlyCopy() throws {
        try Data("x".utf8).write(to: URL(fileURLWithPath: sandbox.path("x.txt")))
        let (source, _) = try startPBDrag(sandbox.path("x.txt"))
        let drop = try pbOK("drop", "--operation", "move")
        XCTAssertTrue(drop.stderr.contains("allows only copy"), drop.stderr)
        XCTAssertEqual(try outcome(of: source).stdout, "copy")
    }

    func testAnAbandonedSessionIsCancelledAndSaysSoToLateDestinations() throws {
        try Data("x".utf8).write(to: URL(fileURLWithPath: sandbox.path("x.txt")))
        let (source, id) = try startPBDrag(sandbox.path("x.txt"))
        source.signal(SIGINT)
        let end = try outcome(of: source)
        XCTAssertEqual(end.status, 1)
        XCTAssertEqual(end.stdout, "cancelled", "\(source.stderrLines)")
        // pb waited for the daemon to confirm the abandonment: its cancel cannot be lost to its exit.
        XCTAssertTrue(source.stderrLines.contains { $0.contains("cancelled: pb (pid") && $0.hasSuffix("abandoned the drag") },
                      "\(source.stderrLines)")
        let late = try pb("drop", "--session", String(id))
        XCTAssertEqual(late.status, 1)
        XCTAssertTrue(late.stderr.contains("drag session \(id) already ended: cancelled: pb (pid"), late.stderr)
        XCTAssertTrue(late.stderr.contains("abandoned the drag"), late.stderr)
    }

    func testASessionNobodyDropsTimesOut() throws {
        try Data("x".utf8).write(to: URL(fileURLWithPath: sandbox.path("x.txt")))
        let (source, _) = try startPBDrag("--timeout", "0.3", sandbox.path("x.txt"))
        let end = try outcome(of: source)
        XCTAssertEqual(end.status, 1)
        XCTAssertEqual(end.stdout, "cancelled")
        XCTAssertTrue(source.stderrLines.contains { $0.contains("nobody dropped it within 0.3 seconds") }, "\(source.stderrLines)")
        XCTAssertEqual(try pbOK("sessions").stdoutText, "(no drag sessions in flight)\n")
    }

    func testADestinationCancelEndsTheDrag() async throws {
        try Data("x".utf8).write(to: URL(fileURLWithPath: sandbox.path("x.txt")))
        let (source, _) = try startPBDrag(sandbox.path("x.txt"))
        let dropped = try await withConnection { connection in
            try await DropSession.current(on: connection).perform(.cancel)
        }
        XCTAssertNil(dropped)
        let end = try outcome(of: source)
        XCTAssertEqual(end.stdout, "cancelled")
        XCTAssertTrue(source.stderrLines.contains { $0.contains("cancelled the drag") }, "\(source.stderrLines)")
    }

    func testLibraryDragSessionHearsEveryEventAndLocalContextStaysInTheApp() async throws {
        let events = try await withConnection(app: "com.example.notes") { connection in
            var note = ItemProvider(suggestedName: "note.txt")
            note.registerDataRepresentation(for: .utf8PlainText) { writer in
                try await writer.write(contentsOf: Array("a lazy note".utf8))
            }
            let session = try await DragSession.begin(
                with: [note], allowing: [.copy, .move], localContext: "notes-window-3", on: connection
            )
            let sandbox = self.sandbox!
            let environment = sandbox.environment()
            let refusedTask = Task.detached { try runTool("gallery", ["drop", "--file", sandbox.path("g.json")], environment: environment, in: sandbox) }
            // The second destination comes once the source has heard the first one's refusal.
            var takenTask: Task<ProcessResult, any Error>?
            var seen: [DragEvent] = []
            _ = try await session.outcome { event in
                seen.append(event)
                if takenTask == nil, case .proposed = event {
                    takenTask = Task.detached { try runTool("pb", ["drop", "--operation", "move"], environment: environment, in: sandbox) }
                }
            }
            let refused = try await refusedTask.value
            let taken = try await XCTUnwrap(takenTask, "the refusal was never heard: \(seen)").value
            XCTAssertEqual(refused.status, 1)
            XCTAssertEqual(taken.stdoutText, "a lazy note")
            return seen
        }
        XCTAssertEqual(events.count, 3, "\(events)")
        XCTAssertEqual(events.first, .proposed(.forbidden, destinationApp: "com.example.gallery"))
        guard case .dropped(.move, "pb", _) = events[1] else { return XCTFail("\(events)") }
        XCTAssertEqual(events.last, .finished(.move, destinationApp: "pb", localContext: nil))
    }
}

/// Drag sessions against a daemon with a default session timeout, and destinations that die.
final class DragSessionLifetimeTests: DragDropTestCase {
    override func setUpWithError() throws {
        sandbox = try Sandbox()
        daemon = try DaemonProcess.started(in: sandbox, arguments: ["--session-timeout", "0.5"])
    }

    func testTheDaemonsSessionTimeoutCancelsForgottenDrags() throws {
        try Data("x".utf8).write(to: URL(fileURLWithPath: sandbox.path("x.txt")))
        let (source, id) = try startPBDrag(sandbox.path("x.txt"))
        let end = try outcome(of: source)
        XCTAssertEqual(end.stdout, "cancelled")
        XCTAssertTrue(source.stderrLines.contains { $0.contains("nobody dropped it within 0.5 seconds") }, "\(source.stderrLines)")
        let late = try pb("drop", "--session", String(id))
        XCTAssertTrue(late.stderr.contains("already ended: cancelled: nobody dropped it"), late.stderr)
    }

    func testAGalleryKilledMidDropLeavesNoPlaceholderBehindAndTheSourceHearsFailed() throws {
        try addImages(["first"])
        let big = sandbox.path("big.png")
        try PNGFixture.writeLarge(to: big, size: 1 << 30)
        let (source, _) = try startPBDrag(big)
        let drop = try start("gallery", ["drop", "--progress", "--file", sandbox.path("a.json")])
        XCTAssertNotNil(drop.waitForLine { $0.hasPrefix("progress ") }, "\(drop.stderrLines)")
        drop.signal(SIGKILL)
        let end = try outcome(of: source)
        XCTAssertEqual(end.status, 1)
        XCTAssertEqual(end.stdout, "failed")
        XCTAssertEqual(try titles(), ["first"], "gallery list removes the placeholder of a gallery that died")
        XCTAssertEqual(files(in: "a.images").count, 1)
    }
}

/// A drag source outlives the daemon: a session nobody dropped yet is lifted again after a restart.
final class DragReconnectTests: DragDropTestCase {
    func testAPBDragIsLiftedAgainInANewSessionAfterTheDaemonRestarts() throws {
        let file = sandbox.path("dragged.txt")
        try Data("dragged across a restart".utf8).write(to: URL(fileURLWithPath: file))
        let (source, _) = try startPBDrag(file)
        daemon.kill9()
        daemon = try DaemonProcess.started(in: sandbox)
        XCTAssertNotNil(source.waitForLine(timeout: 15) { $0.contains("lifted again") }, "\(source.stderrLines)")
        // The new session's line follows the reconnection's: wait for it, not for a moment.
        XCTAssertTrue(eventually(timeout: 10) { source.stderrLines.filter { $0.contains("drag session ") }.count == 2 }, "a new session: \(source.stderrLines)")
        let drop = try pbOK("drop", "-t", "text")
        XCTAssertEqual(drop.stdoutText, "dragged across a restart")
        let (status, stdout) = try outcome(of: source)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(stdout, "copy")
    }

    func testADragAlreadyDroppedFailsWhenTheDaemonDies() throws {
        let file = sandbox.path("big.bin")
        try Data(count: 1 << 20).write(to: URL(fileURLWithPath: file))
        let (source, session) = try startPBDrag("-v", file)
        // A raw destination drops the session and never loads: the drop is in flight.
        let client = try RawClient(socketPath: sandbox.socketPath)
        defer { client.close() }
        XCTAssertEqual(try client.hello().op, "welcome")
        try client.sendMessage(["op": "drop", "session": session, "operation": "copy"], requestID: 1)
        XCTAssertEqual(try client.receive()?.op, "session", "the drop is accepted")
        // The source knows only what it heard: wait until it heard of the drop.
        XCTAssertNotNil(source.waitForLine { $0.contains("dropped by") }, "\(source.stderrLines)")
        daemon.kill9()
        daemon = try DaemonProcess.started(in: sandbox)
        let (status, stdout) = try outcome(of: source)
        XCTAssertEqual(status, 1)
        XCTAssertEqual(stdout, "failed", "\(source.stderrLines)")
    }
}

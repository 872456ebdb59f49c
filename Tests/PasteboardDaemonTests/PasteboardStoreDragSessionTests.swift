@testable import PasteboardDaemon
import PasteboardProtocol
import PasteboardTypes
import XCTest

/// Drag sessions on the store, with fake clients: lifted, grown, dropped by one destination,
/// finished by it; cancelled when their source leaves; failed when their destination goes.
final class PasteboardStoreDragSessionTests: XCTestCase {
    private let source = FakePromiseOwner("pb", app: "gallery", pid: 100)
    private let destination = FakePromiseOwner("files", pid: 200)
    private let contributor = FakePromiseOwner("pb", app: "notes", pid: 300)

    private func received(_ participation: PasteboardStore.Participation) async -> [Message] {
        var events: [Message] = []
        for await event in participation.events { events.append(event) }
        return events
    }

    func testASessionIsLiftedGrownDroppedAndFinished() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let lifted = await store.beginSession(DragRequest(items: [], allow: [.copy, .move], localContext: "row 3"), items: [.text("lifted")], source: source)
        XCTAssertEqual(lifted.info.id, 1)
        XCTAssertEqual(lifted.info.app, "gallery")
        XCTAssertEqual(lifted.info.client, "pb")
        XCTAssertEqual(lifted.info.pid, 100)
        XCTAssertEqual(lifted.info.state, .lifted)
        XCTAssertEqual(lifted.info.allow, [.copy, .move])
        XCTAssertEqual(lifted.info.localContext, "row 3", "the source's own app reads its local context")
        let seen = await store.sessionList(for: destination)
        XCTAssertEqual(seen.map(\.id), [1])
        XCTAssertNil(seen[0].localContext, "another app does not")

        let added = try await store.addItems([.text("added")], to: 1, from: contributor)
        XCTAssertEqual(added.info.items.count, 2)

        let reply = try await store.drop(DropRequest(operation: .move), by: destination)
        guard case .session(let dropped) = reply else { return XCTFail("a drop answers with the session, not \(reply)") }
        XCTAssertEqual(dropped.state, .dropped)
        XCTAssertEqual(dropped.operation, .move)
        await XCTAssertThrowsCode(.noSuchSession, "already dropped by files (pid 200)") { _ = try await store.drop(DropRequest(session: 1, operation: .copy), by: self.contributor) }
        await XCTAssertThrowsCode(.noSuchSession, "already dropped") { _ = try await store.addItems([.text("late")], to: 1, from: self.contributor) }
        await XCTAssertThrowsCode(.permissionDenied, "only by the destination that dropped it") { _ = try await store.droppedItems(of: 1, for: self.source) }
        let items = try await store.droppedItems(of: 1, for: destination)
        XCTAssertEqual(items.map(\.text), ["lifted", "added"])
        await XCTAssertThrowsCode(.permissionDenied, "only the destination that dropped drag session 1 may finish it") {
            try await store.finish(FinishRequest(session: 1, success: true), by: self.source)
        }

        try await store.finish(FinishRequest(session: 1, success: true, localContext: "moved"), by: destination)
        let dropReport = Message.dropped(DestinationReport(operation: .move, app: "files", pid: 200))
        let end = Message.ended(SessionEnd(outcome: .finished, operation: .move, destinationApp: "files"))
        let sourceEvents = await received(lifted)
        let contributorEvents = await received(added)
        XCTAssertEqual(sourceEvents, [dropReport, end], "the local context goes only to a source of the same app")
        XCTAssertEqual(contributorEvents, [dropReport, end])
        await XCTAssertThrowsCode(.noSuchSession, "drag session 1 already ended: finished (move)") { _ = try await store.sessionInfo(1, for: self.destination) }
        let left = await store.sessionList(for: destination)
        XCTAssertTrue(left.isEmpty)
    }

    func testADesktopSessionSaysSoAndAMoveCanFinishAsACopyButNotTheOtherWayRound() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let lifted = await store.beginSession(DragRequest(items: [], allow: [.copy, .move], desktop: true), items: [.text("x")], source: source)
        XCTAssertEqual(lifted.info.desktop, true)
        let seen = await store.sessionList(for: destination)
        XCTAssertEqual(seen.map(\.desktop), [true], "every client sees that the session is on the desktop")
        _ = try await store.drop(DropRequest(operation: .move), by: destination)
        try await store.finish(FinishRequest(session: 1, success: true, operation: .copy), by: destination)
        let events = await received(lifted)
        XCTAssertEqual(events.last, .ended(SessionEnd(outcome: .finished, operation: .copy, destinationApp: "files")),
                       "a move the destination finished as a copy is reported as a copy: the source keeps its originals")

        let plain = await store.beginSession(DragRequest(items: []), items: [.text("y")], source: source)
        XCTAssertNil(plain.info.desktop)
        _ = try await store.drop(DropRequest(session: 2, operation: .copy), by: destination)
        await XCTAssertThrowsCode(.invalidArgument, "dropped as a copy; it cannot finish as a move") {
            try await store.finish(FinishRequest(session: 2, success: true, operation: .move), by: self.destination)
        }
        let info = try await store.sessionInfo(2, for: destination)
        XCTAssertEqual(info.state, .dropped, "a refused finish leaves the drop as it was")
    }

    func testADropZoneIsListedWhileOpenAndItsSessionIsSeenOnlyByItsDestination() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let bridge = FakePromiseOwner("pasteboard-bridge", pid: 400)
        let zone = try await store.openZone(DropZoneRequest(title: "pb drop", accept: ["public.png"]), for: destination)
        let zones = await store.zoneList()
        XCTAssertEqual(zones, [DropZoneInfo(id: zone, app: "files", pid: 200, title: "pb drop", accept: ["public.png"])])
        let lifted = await store.beginSession(DragRequest(items: [], zone: zone), items: [.text("dropped")], source: bridge)
        XCTAssertEqual(lifted.info.zone, zone)
        let others = await store.sessionList(for: contributor)
        XCTAssertEqual(others, [], "nobody but the zone's destination sees its drop")
        await XCTAssertThrowsCode(.permissionDenied, "a desktop drop into another client's drop zone") {
            _ = try await store.drop(DropRequest(session: 1, operation: .copy), by: self.contributor)
        }
        await XCTAssertThrowsCode(.noSuchSession, "no drag session is in flight") {
            _ = try await store.drop(DropRequest(operation: .copy), by: self.contributor)
        }
        let mine = await store.sessionList(for: destination)
        XCTAssertEqual(mine.map(\.id), [1])
        await store.closeZone(zone)
        let closed = await store.zoneList()
        XCTAssertEqual(closed, [])
        let still = await store.sessionList(for: destination)
        XCTAssertEqual(still.map(\.id), [1], "a session lifted for a zone goes on after the zone closed")
        _ = try await store.drop(DropRequest(session: 1, operation: .copy), by: destination)
    }

    func testADropZoneClosesWithItsDestinationsConnectionAndItsUndroppedSessionEnds() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let bridge = FakePromiseOwner("pasteboard-bridge", pid: 400)
        let zone = try await store.openZone(DropZoneRequest(), for: destination)
        let lifted = await store.beginSession(DragRequest(items: [], zone: zone), items: [.text("dropped")], source: bridge)
        await store.connectionGoneFromSessions(destination)
        let zones = await store.zoneList()
        XCTAssertEqual(zones, [])
        let events = await received(lifted)
        XCTAssertEqual(events.last, .ended(SessionEnd(outcome: .cancelled, message: "the destination waiting at drop zone 1, files (pid 200), went away")),
                       "nobody else may drop it: it ends, and the application hears so")
    }

    func testASessionForAZoneThatClosedMeanwhileEndsAtOnce() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let bridge = FakePromiseOwner("pasteboard-bridge", pid: 400)
        let zone = try await store.openZone(DropZoneRequest(), for: destination)
        await store.closeZone(zone)
        let lifted = await store.beginSession(DragRequest(items: [], zone: zone), items: [.text("late")], source: bridge)
        let events = await received(lifted)
        XCTAssertEqual(events, [.ended(SessionEnd(outcome: .cancelled, message: "drop zone 1 closed before the drop reached it"))])
    }

    func testZonesAreLimitedInAllAndPerConnection() async throws {
        let store = PasteboardStore(registry: .builtIn)
        _ = try await store.openZone(DropZoneRequest(), for: destination)
        _ = try await store.openZone(DropZoneRequest(), for: destination)
        await XCTAssertThrowsCode(.limitReached, "2 drop zones, the most one may") { _ = try await store.openZone(DropZoneRequest(), for: self.destination) }
        let others = (0..<6).map { FakePromiseOwner("pb", pid: Int32(500 + $0)) }
        for other in others { _ = try await store.openZone(DropZoneRequest(), for: other) }
        await XCTAssertThrowsCode(.limitReached, "8 drop zones are open") { _ = try await store.openZone(DropZoneRequest(), for: self.contributor) }
    }

    func testADropZoneOverItsLimitsIsRefused() throws {
        XCTAssertThrowsError(try DropZoneRecord.validate(DropZoneRequest(title: String(repeating: "x", count: 257))))
        // One character of many bytes (a letter with 300 combining marks) counts by its bytes.
        XCTAssertThrowsError(try DropZoneRecord.validate(DropZoneRequest(title: "e" + String(repeating: "\u{301}", count: 300))))
        XCTAssertThrowsError(try DropZoneRecord.validate(DropZoneRequest(accept: Array(repeating: "public.png", count: 33))))
        XCTAssertThrowsError(try DropZoneRecord.validate(DropZoneRequest(accept: [""])))
        XCTAssertThrowsError(try DropZoneRecord.validate(DropZoneRequest(accept: [String(repeating: "a", count: 129)])))
        XCTAssertNoThrow(try DropZoneRecord.validate(DropZoneRequest(title: String(repeating: "x", count: 256), accept: Array(repeating: "public.png", count: 32))))
    }

    func testProposalsOtherThanADropLeaveOrEndTheSession() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let lifted = await store.beginSession(DragRequest(items: []), items: [.text("x")], source: source)
        XCTAssertEqual(lifted.info.allow, [.copy], "copy unless the source allows more")
        let forbidden = try await store.drop(DropRequest(operation: .forbidden), by: destination)
        XCTAssertEqual(forbidden, .ok(OK()))
        let info = try await store.sessionInfo(nil, for: destination)
        XCTAssertEqual(info.state, .lifted, "a forbidden proposal leaves the session in flight")
        let cancel = try await store.drop(DropRequest(session: 1, operation: .cancel), by: destination)
        XCTAssertEqual(cancel, .ok(OK()))
        let liftedEvents = await received(lifted)
        XCTAssertEqual(liftedEvents, [
            .proposed(DestinationReport(operation: .forbidden, app: "files", pid: 200)),
            .proposed(DestinationReport(operation: .cancel, app: "files", pid: 200)),
            .ended(SessionEnd(outcome: .cancelled, message: "files (pid 200) cancelled the drag", destinationApp: "files")),
        ])
    }

    func testAMoveIsACopyWhenOnlyCopyIsAllowed() async throws {
        let store = PasteboardStore(registry: .builtIn)
        _ = await store.beginSession(DragRequest(items: [], allow: [.copy]), items: [.text("x")], source: source)
        let reply = try await store.drop(DropRequest(operation: .move), by: destination)
        guard case .session(let info) = reply else { return XCTFail("\(reply)") }
        XCTAssertEqual(info.operation, .copy)
    }

    func testAParticipantLeavesAloneButTheSourceLeavingCancelsTheSession() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let lifted = await store.beginSession(DragRequest(items: []), items: [.text("x")], source: source)
        let added = try await store.addItems([.text("y")], to: 1, from: contributor)
        await store.leave(1, participant: added.participant, client: contributor, wentAway: false)
        let contributorEvents = await received(added)
        XCTAssertEqual(contributorEvents, [], "a contributor that leaves hears nothing more")
        let info = try await store.sessionInfo(1, for: destination)
        XCTAssertEqual(info.items.count, 2, "and its items stay")

        await store.leave(1, participant: lifted.participant, client: source, wentAway: true)
        let sourceEvents = await received(lifted)
        XCTAssertEqual(sourceEvents, [.ended(SessionEnd(outcome: .cancelled, message: "its source, pb (pid 100), went away"))])
    }

    func testARestrictedSessionIsSeenOnlyByItsApplication() async throws {
        let store = PasteboardStore(registry: .builtIn)
        _ = await store.beginSession(DragRequest(items: [], restricted: true), items: [.text("x")], source: source)
        let sameApp = FakePromiseOwner("viewer", app: "gallery", pid: 101)
        let seenByOthers = await store.sessionList(for: destination)
        let seenByItsApp = await store.sessionList(for: sameApp)
        XCTAssertTrue(seenByOthers.isEmpty)
        XCTAssertEqual(seenByItsApp.map(\.id), [1])
        await XCTAssertThrowsCode(.permissionDenied, "restricted to the application 'gallery'") { _ = try await store.drop(DropRequest(session: 1, operation: .copy), by: self.destination) }
        await XCTAssertThrowsCode(.noSuchSession, "no drag session is in flight") { _ = try await store.drop(DropRequest(operation: .copy), by: self.destination) }
    }

    func testWhenAClientGoesItsSessionsEndAndItsPromisesInOthersAreUnavailable() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let first = await store.beginSession(DragRequest(items: []), items: [.text("x")], source: source)
        _ = try await store.addItems([.promised(by: contributor, [(.png, 6)])], to: 1, from: contributor)
        _ = try await store.drop(DropRequest(operation: .copy), by: destination)
        await store.clientGone(contributor) { _ in "unused: the contributor promised nothing on a pasteboard" }
        let items = try await store.droppedItems(of: 1, for: destination)
        XCTAssertEqual(items[1].representations[0].unavailableReason,
                       "pb (pid 300) disconnected without handing over public.png (item 1 of drag session 1)")

        await store.clientGone(destination) { _ in "" }
        let firstEvents = await received(first)
        XCTAssertEqual(firstEvents.last, .ended(SessionEnd(
            outcome: .failed, message: "the destination, files (pid 200), went away before finishing the drop", destinationApp: "files")))

        let second = await store.beginSession(DragRequest(items: []), items: [.promised(by: source, [(.png, 11)])], source: source)
        await store.clientGone(source) { _ in "" }
        let secondEvents = await received(second)
        XCTAssertEqual(secondEvents, [.ended(SessionEnd(outcome: .cancelled, message: "its source, pb (pid 100), went away"))])
        let released = await source.nextReleased()
        XCTAssertEqual(released, [11], "an ended session's promises are released")
    }
}

/// Asserts that `body` throws a `ProtocolError` with `code` whose message contains `text`.
func XCTAssertThrowsCode(
    _ code: ErrorCode, _ text: String, file: StaticString = #filePath, line: UInt = #line, _ body: () async throws -> Void
) async {
    do {
        try await body()
        XCTFail("no \(code.rawValue) error", file: file, line: line)
    } catch let error as ProtocolError {
        XCTAssertEqual(error.code, code, error.message, file: file, line: line)
        XCTAssertTrue(error.message.contains(text), "'\(error.message)' does not say '\(text)'", file: file, line: line)
    } catch {
        XCTFail("\(error)", file: file, line: line)
    }
}

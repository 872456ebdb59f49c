import Foundation
import Pasteboard
import TestSupport
import XCTest

/// Live sources outlive the daemon: when it restarts (even after kill -9) they reconnect and
/// put their promised items back, so a paste still gets the data from the live source.
final class ReconnectTests: IntegrationTestCase {
    private func waitForItems(_ pasteboard: String = "general", lazy: Bool) throws {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let items = try? listing(pasteboard)["items"] as? [[String: Any]], items.count == 1,
               ((items[0]["representations"] as? [[String: Any]])?.first?["lazy"] as? Bool ?? false) == lazy {
                return
            }
            usleep(10_000)
        }
        XCTFail("the items never appeared")
    }

    func testALazyCopyPutsItsItemsBackAfterTheDaemonIsKilledAndRestarted() throws {
        let file = sandbox.path("note.txt")
        try Data("served by the live source".utf8).write(to: URL(fileURLWithPath: file))
        let copier = try startPB("copy", "--lazy", "-v", file)
        try waitForItems(lazy: true)
        let before = try changeCount()

        daemon.kill9()
        XCTAssertNotNil(copier.waitForLine(timeout: 10) { $0.contains("lost pasteboardd") }, "\(copier.stderrLines)")
        XCTAssertTrue(copier.process.isRunning, "the source waits for the daemon to come back")
        daemon = try DaemonProcess.started(in: sandbox)

        XCTAssertNotNil(copier.waitForLine(timeout: 15) { $0.contains("reconnected") }, "\(copier.stderrLines)")
        XCTAssertEqual(try pbOK("paste").stdoutText, "served by the live source")
        XCTAssertGreaterThan(try changeCount(), before, "the restored copy was replaced by the live one")
        XCTAssertTrue(copier.stderrLines.contains { $0.contains("loading for pid") }, "the data came from the source: \(copier.stderrLines)")

        try pbOK("copy", stdin: Data("newer".utf8))
        XCTAssertEqual(copier.waitForExit(), 0, "replaced: the source is done")
    }

    func testAMemoryOnlyDaemonGetsTheItemsBackOnItsEmptyPasteboard() throws {
        daemon.kill9()
        daemon = try DaemonProcess.started(in: sandbox, arguments: ["--memory-only"])
        let file = sandbox.path("kept.txt")
        try Data("still here".utf8).write(to: URL(fileURLWithPath: file))
        let copier = try startPB("copy", "--lazy", "-p", "work", file)
        try waitForItems("work", lazy: true)
        daemon.kill9()
        daemon = try DaemonProcess.started(in: sandbox, arguments: ["--memory-only"])
        XCTAssertNotNil(copier.waitForLine(timeout: 15) { $0.contains("reconnected") }, "\(copier.stderrLines)")
        XCTAssertEqual(try pbOK("paste", "-p", "work").stdoutText, "still here")
    }

    func testANewerCopyMadeWhileTheSourceWasAwayIsNeverOverwritten() throws {
        let file = sandbox.path("old.txt")
        try Data("old".utf8).write(to: URL(fileURLWithPath: file))
        let copier = try startPB("copy", "--lazy", file)
        try waitForItems(lazy: true)
        daemon.kill9()
        daemon = try DaemonProcess.started(in: sandbox)
        try pbOK("copy", stdin: Data("newer".utf8))
        XCTAssertEqual(copier.waitForExit(), 0, "the source gives up its items: \(copier.stderrLines)")
        XCTAssertEqual(try pbOK("paste").stdoutText, "newer")
    }

    func testALibrarySourceIsToldItReconnectedAndServesAgain() async throws {
        let loads = LoadCounter()
        var item = ItemProvider()
        item.registerDataRepresentation(for: .utf8PlainText) { writer in
            loads.increment()
            try await writer.write(contentsOf: Array("from the library".utf8))
        }
        var source = LiveSource(items: [item], socketPath: sandbox.socketPath, clientName: "reconnect-test")
        source.autoStart = false
        source.backoff = .init(initial: .milliseconds(20), maximum: .milliseconds(200))
        let events = EventLog<LiveSource.Event>()
        let stop = StopSignal()
        let running = Task { try await source.run(until: { await stop.wait() }, onEvent: { events.append($0) }) }

        let seen1 = await asyncEventually(timeout: 15) { events.all.contains { if case .copied(_, false) = $0 { true } else { false } } }
        XCTAssertTrue(seen1, "\(events.all)")
        daemon.kill9()
        let seen2 = await asyncEventually(timeout: 15) { events.all.contains { if case .connectionLost = $0 { true } else { false } } }
        XCTAssertTrue(seen2, "\(events.all)")
        daemon = try DaemonProcess.started(in: sandbox)
        let seen3 = await asyncEventually(timeout: 15) { events.all.contains { if case .copied(_, true) = $0 { true } else { false } } }
        XCTAssertTrue(seen3, "\(events.all)")
        XCTAssertEqual(try pbOK("paste").stdoutText, "from the library")
        XCTAssertEqual(loads.value, 1)

        stop.signal()
        let outcome = try await running.value
        XCTAssertEqual(outcome, .stopped)
        XCTAssertEqual(try pbOK("paste").stdoutText, "from the library", "stopping hands the data to the daemon")
    }
}

/// Thread-safe helpers for the library test.
private final class LoadCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

private final class StopSignal: @unchecked Sendable {
    private let stream = AsyncStream.makeStream(of: Void.self)
    func signal() { stream.continuation.finish() }
    func wait() async { for await _ in stream.stream {} }
}

import Foundation
import Glibc
import TestSupport
import XCTest

/// `pb copy --expire` across a restart of the daemon: the deadline is stored with the content,
/// so content whose time passed while the daemon was down is gone before anything reads it,
/// and content whose time has not passed still goes when it comes.
final class ExpiryRestartTests: IntegrationTestCase {
    /// Waits (bounded) until the wall clock has passed `deadline`.
    private func waitUntilPassed(_ deadline: Date) {
        while Date() <= deadline { usleep(50_000) }
    }

    private func itemCount(_ pasteboard: String = "general") throws -> Int {
        try XCTUnwrap(listing(pasteboard)["items"] as? [Any]).count
    }

    private func expiredWhileDown(stop: (DaemonProcess) -> Void) throws {
        let copied = Date()
        try pbOK("copy", "--expire", "2", stdin: Data("short-lived secret".utf8))
        try pbOK("copy", "-p", "work", "--expire", "2", stdin: Data("short-lived work".utf8))
        try pbOK("copy", "-p", "kept", stdin: Data("does not expire".utf8))
        stop(daemon)
        let stoppedInTime = Date() < copied.addingTimeInterval(2)  // else the running daemon cleared it
        waitUntilPassed(copied.addingTimeInterval(2.2))
        daemon = try DaemonProcess.started(in: sandbox)

        XCTAssertEqual(try itemCount(), 0, "the expired content is gone before the first request reads it")
        XCTAssertEqual(try changeCount(), 2, "the expiry cleared it, as a running daemon does")
        XCTAssertEqual(try itemCount("work"), 0)
        XCTAssertEqual(try pbOK("paste", "-p", "kept").stdoutText, "does not expire")
        if stoppedInTime {
            XCTAssertTrue(daemon.log.contains("pasteboard expired while pasteboardd was not running"), daemon.log)
        }
        XCTAssertFalse(try stateFilesContain("short-lived"), "and it left the disk")
    }

    func testContentThatExpiredWhileTheDaemonWasKilledIsGoneAfterTheRestart() throws {
        try expiredWhileDown { $0.kill9() }
    }

    /// The daemon's server in this process, stopped as SIGTERM stops it, on a clock the test moves
    /// past the deadline while it is down: no wait in real time.
    func testContentThatExpiredWhileTheDaemonWasStoppedIsGoneAfterTheRestart() throws {
        stopDaemon()
        let clock = ManualWallClock()
        inProcessDaemon = try InProcessDaemon.started(in: sandbox, clock: clock.wallClock)
        try pbOK("copy", "--expire", "2", stdin: Data("short-lived secret".utf8))
        try pbOK("copy", "-p", "work", "--expire", "2", stdin: Data("short-lived work".utf8))
        try pbOK("copy", "-p", "kept", stdin: Data("does not expire".utf8))
        stopDaemon()
        clock.advance(bySeconds: 2.2)
        inProcessDaemon = try InProcessDaemon.started(in: sandbox, clock: clock.wallClock)

        XCTAssertEqual(try itemCount(), 0, "the expired content is gone before the first request reads it")
        XCTAssertEqual(try changeCount(), 2, "the expiry cleared it, as a running daemon does")
        XCTAssertEqual(try itemCount("work"), 0)
        XCTAssertEqual(try pbOK("paste", "-p", "kept").stdoutText, "does not expire")
        XCTAssertTrue(daemonLog.contains("pasteboard expired while pasteboardd was not running"), daemonLog)
        XCTAssertFalse(try stateFilesContain("short-lived"), "and it left the disk")
    }

    /// A running daemon clears the content when its clock reaches the deadline, not before.
    func testARunningDaemonClearsTheContentWhenItsClockReachesTheDeadline() throws {
        stopDaemon()
        let clock = ManualWallClock()
        inProcessDaemon = try InProcessDaemon.started(in: sandbox, clock: clock.wallClock)
        try pbOK("copy", "--expire", "30", stdin: Data("short-lived".utf8))
        clock.advance(bySeconds: 29)
        XCTAssertEqual(try pbOK("paste").stdoutText, "short-lived", "its time has not come yet")
        clock.advance(bySeconds: 1.5)
        XCTAssertTrue(eventually { (try? self.itemCount()) == 0 }, "the daemon did not clear it at its deadline")
        XCTAssertTrue(waitForDaemonLog("pasteboard expired"), daemonLog)
        XCTAssertEqual(try changeCount(), 2)
    }

    func testContentNotYetExpiredComesBackAndStillExpires() throws {
        let copied = Date()
        try pbOK("copy", "--expire", "4", stdin: Data("expires later".utf8))
        daemon.kill9()
        daemon = try DaemonProcess.started(in: sandbox)
        if Date() < copied.addingTimeInterval(3.5) {
            XCTAssertEqual(try pbOK("paste").stdoutText, "expires later", "its time has not come yet")
        }
        XCTAssertTrue(eventually(timeout: 20) { (try? self.itemCount()) == 0 }, "the restarted daemon clears it when its time comes")
        XCTAssertEqual(try changeCount(), 2)
        XCTAssertTrue(daemon.waitForLog("pasteboard expired"), daemon.log)
        // The expiry ends with the content: a newer copy stays.
        try pbOK("copy", "--expire", "4", stdin: Data("replaced".utf8))
        try pbOK("copy", stdin: Data("newer, no expiry".utf8))
        daemon.stop()
        daemon = try DaemonProcess.started(in: sandbox)
        XCTAssertEqual(try pbOK("paste").stdoutText, "newer, no expiry")
    }

    func testALazyCopyThatExpiredWhileTheDaemonWasAwayIsNotPutBack() throws {
        daemon.kill9()
        daemon = try DaemonProcess.started(in: sandbox, arguments: ["--memory-only"])
        let file = sandbox.path("short-lived.txt")
        try Data("short-lived and lazy".utf8).write(to: URL(fileURLWithPath: file))
        let copier = try startPB("copy", "--lazy", "-p", "work", "--expire", "2", file)
        XCTAssertTrue(eventually(timeout: 20) { (try? self.itemCount("work")) == 1 }, "the lazy copy never appeared")
        let appeared = Date()  // the source's first copy, and so its deadline's start, came before
        daemon.kill9()
        waitUntilPassed(appeared.addingTimeInterval(2.3))
        daemon = try DaemonProcess.started(in: sandbox, arguments: ["--memory-only"])
        var cameBack = false
        let ended = eventually(timeout: 20) {
            if ((try? self.itemCount("work")) ?? 0) > 0 { cameBack = true }
            return !copier.process.isRunning
        }
        XCTAssertTrue(ended, "the source is done: its copy expired while the daemon was away")
        XCTAssertFalse(cameBack, "a copy again after the reconnect would have outlived its deadline")
        XCTAssertEqual(try itemCount("work"), 0)
    }
}

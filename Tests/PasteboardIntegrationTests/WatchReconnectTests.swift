import Foundation
import Glibc
import TestSupport
import XCTest

/// `pb watch` outlives the daemon, as lazy copies and drags do: when it is restarted (stopped
/// or killed), the watch says so on stderr, reconnects and goes on; a change made while it was
/// away is reported once, the unchanged content is not reported again.
final class WatchReconnectTests: IntegrationTestCase {
    /// The lines the recording command appended: `COUNT STATE CONTENT`.
    private func recorded(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func testWatchExecRunsOnAcrossARestartOfTheRealDaemon() throws {
        let log = sandbox.path("runs.log")
        let script = sandbox.path("record.sh")
        try Data("#!/bin/sh\nprintf '%s %s %s\\n' \"$PASTEBOARD_CHANGE_COUNT\" \"$PASTEBOARD_STATE\" \"$(cat)\" >> \"\(log)\"\n".utf8)
            .write(to: URL(fileURLWithPath: script))
        chmod(script, 0o755)
        try pbOK("copy", stdin: Data("before".utf8))
        let watch = try startPB("watch", "--exec", script)
        XCTAssertTrue(eventually { self.recorded(log) == ["1 data before"] }, "\(recorded(log)) \(watch.stderrLines)")

        XCTAssertEqual(daemon.stop(), 0, "a graceful stop, as systemctl restart does")
        XCTAssertNotNil(watch.waitForLine { $0.contains("pb: lost pasteboardd") }, "\(watch.stderrLines)")
        XCTAssertTrue(watch.process.isRunning, "the watch waits for the daemon: \(watch.stderrLines)")
        daemon = try DaemonProcess.started(in: sandbox)
        XCTAssertNotNil(watch.waitForLine { $0.contains("pb: reconnected to pasteboardd") }, "\(watch.stderrLines)")

        try pbOK("copy", stdin: Data("after".utf8))
        XCTAssertTrue(eventually { self.recorded(log).count >= 2 }, "\(recorded(log)) \(watch.stderrLines)")
        XCTAssertEqual(recorded(log), ["1 data before", "2 data after"], "the unchanged content did not run the command again")
        XCTAssertTrue(watch.process.isRunning)
        XCTAssertFalse(watch.stderrLines.contains { $0.contains("cancelled") }, "\(watch.stderrLines)")

        watch.signal(SIGTERM)
        XCTAssertEqual(watch.waitForExit(), 0, "\(watch.stderrLines)")
    }

    func testPlainWatchReportsAChangeMadeWhileTheDaemonWasAwayOnce() throws {
        let watch = try startPB("watch")
        let output = { (try? String(contentsOfFile: watch.stdoutPath, encoding: .utf8)) ?? "" }
        XCTAssertTrue(eventually { output() == "0 (empty)\n" }, output())

        daemon.kill9()
        XCTAssertNotNil(watch.waitForLine { $0.contains("pb: lost pasteboardd") }, "\(watch.stderrLines)")
        daemon = try DaemonProcess.started(in: sandbox)
        try pbOK("copy", stdin: Data("while away".utf8))
        XCTAssertNotNil(watch.waitForLine { $0.contains("pb: reconnected to pasteboardd") }, "\(watch.stderrLines)")
        try pbOK("clear")
        XCTAssertTrue(eventually { output().hasSuffix("2 (empty)\n") }, output())
        XCTAssertEqual(output(), "0 (empty)\n1 public.utf8-plain-text\n2 (empty)\n")
        XCTAssertTrue(watch.process.isRunning, "\(watch.stderrLines)")
    }
}

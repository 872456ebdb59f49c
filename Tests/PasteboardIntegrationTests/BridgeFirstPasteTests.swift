import Foundation
import TestSupport
import XCTest

/// The first paste after a daemon with a display starts is the desktop's current content: a
/// read of a bridged pasteboard waits (at most 2 s) until the new bridge brought in what the
/// desktop holds, where it used to answer with the content of before (or nothing).
extension DesktopBridgeProcessTests {
    /// The pid in the single-instance lock beside the socket (a daemon pb started itself).
    private func lockedDaemonPID() -> pid_t? {
        (try? String(contentsOfFile: sandbox.socketPath + ".lock", encoding: .utf8)).flatMap { pid_t($0.filter(\.isNumber)) }
    }

    /// Stops the daemon pb auto-started (SIGTERM), waiting until it is gone.
    private func stopAutoStartedDaemon() {
        guard let pid = lockedDaemonPID() else { return }
        kill(pid, SIGTERM)
        XCTAssertTrue(eventually(timeout: 10) { kill(pid, 0) != 0 }, "the auto-started daemon \(pid) did not stop")
    }

    func testTheFirstPasteAfterAnAutoStartIsTheDesktopsContent() throws {
        let server = try startServer()
        let environment = sandbox.environment(autoStart: true).merging(displayEnvironment(server)) { $1 }
        defer { stopAutoStartedDaemon() }
        for round in 1...4 {
            // The pasteboard holds something older, the daemon is stopped, and a desktop
            // application copies meanwhile.
            let before = try runTool("pb", ["copy"], stdin: Data("older, round \(round)".utf8), environment: environment, in: sandbox)
            XCTAssertEqual(before.status, 0, before.stderr)
            stopAutoStartedDaemon()
            for peer in peers { peer.stop() }
            peers = []
            _ = try copyWithXclip("copied while no daemon ran, round \(round)", server: server)
            // The desktop has it (xclip owns the clipboard) before the paste that starts the daemon.
            XCTAssertTrue(eventually(timeout: 10) {
                (try? runTool("/usr/bin/xclip", ["-selection", "clipboard", "-o"], environment: environment, in: self.sandbox))?.stdoutText
                    == "copied while no daemon ran, round \(round)"
            }, "round \(round): xclip never owned the clipboard")
            // The paste that starts the daemon gets the desktop's copy.
            let pasted = try runTool("pb", ["paste"], environment: environment, in: sandbox)
            XCTAssertEqual(pasted.status, 0, "round \(round): \(pasted.stderr)")
            XCTAssertEqual(pasted.stdoutText, "copied while no daemon ran, round \(round)", "round \(round): a stale first paste")
        }
    }
}

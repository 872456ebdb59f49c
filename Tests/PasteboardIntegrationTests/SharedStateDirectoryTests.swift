import Foundation
import Glibc
import TestSupport
import XCTest

/// A state directory belongs to one live daemon: a second daemon on another socket with the same
/// `$XDG_STATE_HOME` refuses to start, naming the holder and how to give it a directory of its
/// own, so neither daemon's acknowledged copies are lost (they used to overwrite each other's
/// archives, history, journal and `data/`).
final class SharedStateDirectoryTests: IntegrationTestCase {
    /// The environment of a second socket in the same sandbox (same XDG_STATE_HOME).
    private func otherSocket(autoStart: Bool) -> [String: String] {
        var environment = sandbox.environment(autoStart: autoStart)
        environment["PASTEBOARD_SOCKET"] = sandbox.path("run/other.sock")
        return environment
    }

    func testASecondDaemonOnAnotherSocketRefusesTheStateDirectoryAndNothingIsLost() throws {
        // Daemon A holds a large stored copy, in history too.
        let large = try randomFile("large", size: 8 << 20)
        try pbOK("copy", large)
        try pbOK("copy", stdin: Data("first".utf8))

        // `PASTEBOARD_SOCKET=…/other.sock pb copy` auto-starts daemon B on the same state home.
        let second = try runTool("pb", ["copy"], stdin: Data("second".utf8), environment: otherSocket(autoStart: true), in: sandbox)
        XCTAssertNotEqual(second.status, 0, "the other socket's copy was acknowledged by a daemon sharing A's state: \(second.stderr)")
        XCTAssertTrue(second.stderr.contains("the state directory \(sandbox.stateDirectory) is in use by another pasteboardd (pid \(daemon.process.processIdentifier)) serving \(sandbox.socketPath)"),
                      second.stderr)
        XCTAssertTrue(second.stderr.contains("--state-directory"), second.stderr)

        // B with a state directory of its own starts, and takes its copies.
        let own = sandbox.path("other-state")
        let other = try DaemonProcess(sandbox: sandbox, arguments: ["--socket", sandbox.path("run/other.sock"), "--state-directory", own])
        defer { other.stop() }
        XCTAssertTrue(eventually { (try? runTool("pb", ["copy"], stdin: Data("second".utf8), environment: self.otherSocket(autoStart: false), in: self.sandbox))?.status == 0 },
                      other.log)

        // Both restarted: each has what it acknowledged.
        daemon.kill9()
        other.stop()
        daemon = try DaemonProcess.started(in: sandbox)
        XCTAssertEqual(try pbOK("paste").stdoutText, "first")
        // The large copy, entry 1 of A's history, with its stored file.
        try pbOK("history", "restore", "1")
        try pbOK("paste", "-o", sandbox.path("restored"))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: sandbox.path("restored"))), try Data(contentsOf: URL(fileURLWithPath: large)))
        let restartedOther = try DaemonProcess(sandbox: sandbox, arguments: ["--socket", sandbox.path("run/other.sock"), "--state-directory", own])
        defer { restartedOther.stop() }
        var pasted = ""
        XCTAssertTrue(eventually {
            pasted = (try? runTool("pb", ["paste"], environment: self.otherSocket(autoStart: false), in: self.sandbox))?.stdoutText ?? ""
            return pasted == "second"
        }, "the other daemon's copy: \(pasted)")
    }

    func testADaemonOnTheSameStateDirectoryStartsAgainOnceTheFirstEnded() throws {
        daemon.kill9()
        // The lock went with the process: a daemon on another socket may now have the directory.
        let other = try DaemonProcess(sandbox: sandbox, arguments: ["--socket", sandbox.path("run/other.sock")])
        defer { other.stop() }
        XCTAssertTrue(eventually { (try? runTool("pb", ["copy"], stdin: Data("taken over".utf8), environment: self.otherSocket(autoStart: false), in: self.sandbox))?.status == 0 },
                      other.log)
    }
}

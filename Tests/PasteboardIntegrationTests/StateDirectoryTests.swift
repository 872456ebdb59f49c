import Foundation
import Glibc
import TestSupport
import XCTest

/// What the daemon finds in its directories instead of what it put there: errors name the
/// directory (state, history, socket) that is wrong, what is dropped is logged, and no file of
/// ours is opened through a symbolic link or blocks on a FIFO.
final class StateDirectoryTests: IntegrationTestCase {
    /// Starts pasteboardd expecting it to refuse: its exit status and log. One that is still
    /// running after a bounded wait is killed, and its status is then 0 (it did not refuse).
    private func refusedStart() throws -> (status: Int32, log: String) {
        daemon.stop()
        let refused = try DaemonProcess(sandbox: sandbox)
        guard eventually(timeout: 15, { !refused.process.isRunning }) else {
            refused.stop()
            return (0, refused.log)
        }
        return (refused.process.terminationStatus, refused.log)
    }

    /// Starts pasteboardd and waits (bounded) until it serves; fails the test if it does not.
    private func startOrFail(file: StaticString = #filePath, line: UInt = #line) throws {
        let started = try DaemonProcess(sandbox: sandbox)
        daemon = started
        let serving = eventually(timeout: 15) {
            guard let client = try? RawClient(socketPath: self.sandbox.socketPath) else { return false }
            client.close()
            return true
        }
        XCTAssertTrue(serving, "pasteboardd never served: \(started.log)", file: file, line: line)
    }

    func testAWorldWritableStateDirectoryIsNamedAsTheStateDirectory() throws {
        daemon.stop()
        XCTAssertEqual(chmod(sandbox.stateDirectory, 0o777), 0)
        let (status, log) = try refusedStart()
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(log.contains("refusing to use state directory \(sandbox.stateDirectory): it is writable by group or others"), log)
        XCTAssertFalse(log.contains("socket directory"), log)
    }

    func testAFileWhereTheStateDirectoryShouldBeIsNamedAsTheStateDirectory() throws {
        daemon.stop()
        try FileManager.default.removeItem(atPath: sandbox.stateDirectory)
        try Data("in the way".utf8).write(to: URL(fileURLWithPath: sandbox.stateDirectory))
        let (status, log) = try refusedStart()
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(log.contains("refusing to use state directory \(sandbox.stateDirectory): it is not a directory"), log)
    }

    func testHistoryAsARegularFileIsNamedAsTheHistoryDirectoryAndWhatTheJournalHeldOfItIsLogged() throws {
        try pbOK("copy", stdin: Data("with a history entry".utf8))
        daemon.kill9()
        let history = sandbox.stateDirectory + "/history"
        try? FileManager.default.removeItem(atPath: history)
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: history))
        daemon = try DaemonProcess.started(in: sandbox)
        XCTAssertEqual(try pbOK("paste").stdoutText, "with a history entry", "the pasteboard itself is restored")
        let log = daemon.log
        XCTAssertTrue(log.contains("refusing to use history directory \(history): it is not a directory"), log)
        XCTAssertFalse(log.contains("socket directory"), log)
        let dropped = log.split(separator: "\n").filter { $0.contains("dropped the history entries the journal held") }
        XCTAssertEqual(dropped.count, 1, log)
        XCTAssertTrue(dropped.first?.contains(" error ") == true, "\(dropped)")
    }

    func testASymbolicLinkInPlaceOfTheLockFileIsNotFollowed() throws {
        daemon.stop()
        let target = sandbox.path("elsewhere")
        try? FileManager.default.removeItem(atPath: sandbox.socketPath + ".lock")
        XCTAssertEqual(symlink(target, sandbox.socketPath + ".lock"), 0)
        let (status, log) = try refusedStart()
        XCTAssertNotEqual(status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target), "nothing was created or written through the link")
        XCTAssertTrue(log.contains(sandbox.socketPath + ".lock"), log)
    }

    func testASymbolicLinkInPlaceOfAnArchiveIsNotServed() throws {
        try pbOK("copy", "-p", "linked", stdin: Data("from outside the state directory".utf8))
        daemon.kill9()
        daemon = try DaemonProcess.started(in: sandbox)  // the journal's content goes to its file
        daemon.kill9()
        let archive = sandbox.stateDirectory + "/linked.pasteboard"
        let outside = sandbox.path("outside.pasteboard")
        try FileManager.default.moveItem(atPath: archive, toPath: outside)
        XCTAssertEqual(symlink(outside, archive), 0)
        daemon = try DaemonProcess.started(in: sandbox)
        XCTAssertEqual(try changeCount("linked"), 0, "an archive is read only from a regular file in the state directory")
        XCTAssertTrue(daemon.log.contains("skipped a damaged pasteboard archive"), daemon.log)
        XCTAssertTrue(daemon.log.contains("symbolic link"), daemon.log)
    }

    func testAFIFOInPlaceOfTheJournalDoesNotHangTheDaemon() throws {
        try pbOK("copy", "-p", "kept", stdin: Data("in its own file".utf8))
        daemon.stop()
        daemon = try DaemonProcess.started(in: sandbox)
        daemon.kill9()
        let journal = sandbox.stateDirectory + "/journal"
        try FileManager.default.removeItem(atPath: journal)
        XCTAssertEqual(mkfifo(journal, 0o600), 0)
        try startOrFail()
        XCTAssertEqual(try pbOK("paste", "-p", "kept").stdoutText, "in its own file")
        XCTAssertTrue(daemon.log.contains("set aside a damaged journal"), daemon.log)
        XCTAssertTrue(daemon.log.contains("FIFO"), daemon.log)
        try pbOK("copy", "-p", "kept", stdin: Data("a fresh journal".utf8))
        daemon.kill9()
        daemon = try DaemonProcess.started(in: sandbox)
        XCTAssertEqual(try pbOK("paste", "-p", "kept").stdoutText, "a fresh journal")
    }
}

import Foundation
import Glibc
import TestSupport
import XCTest

final class DaemonTests: IntegrationTestCase {
    func testSocketIsPrivateToTheUser() throws {
        var info = stat()
        XCTAssertEqual(stat(sandbox.socketDirectory, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700, "socket directory mode")
        XCTAssertEqual(stat(sandbox.socketPath, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFSOCK)
        XCTAssertEqual(info.st_mode & 0o777, 0o600, "socket mode")
    }

    func testTheDaemonRefusesASocketDirectoryOthersCanWriteOrOwn() throws {
        let directory = sandbox.path("shared-run")
        XCTAssertEqual(mkdir(directory, 0o700), 0)
        chmod(directory, 0o770)
        let socket = directory + "/pasteboardd.sock"
        let loose = try runTool("pasteboardd", ["--socket", socket], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(loose.status, 1)
        XCTAssertTrue(loose.stderr.contains("writable by group or others (mode 770)"), loose.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket), "nothing listens there")

        guard getuid() == 0 else { throw XCTSkip("needs root to give the directory to another uid") }
        chmod(directory, 0o700)
        XCTAssertEqual(chown(directory, 65534, 65534), 0)
        let foreign = try runTool("pasteboardd", ["--socket", socket], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(foreign.status, 1)
        XCTAssertTrue(foreign.stderr.contains("owned by uid 65534"), foreign.stderr)
    }

    func testASecondDaemonRefusesAndLeavesTheFirstAlone() throws {
        try pbOK("copy", stdin: Data("kept".utf8))
        let second = try runTool("pasteboardd", [], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(second.status, 1)
        XCTAssertTrue(second.stderr.contains("already serving"), second.stderr)
        XCTAssertTrue(second.stderr.contains("pid \(daemon.process.processIdentifier)"), second.stderr)
        XCTAssertEqual(try pbOK("paste").stdoutText, "kept", "the first daemon still serves its socket")
    }

    func testGracefulShutdownRemovesTheSocket() throws {
        XCTAssertEqual(daemon.stop(), 0, daemon.log)
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.socketPath))
        XCTAssertTrue(daemon.log.contains("stopped"), daemon.log)
    }

    func testUnreachableDaemonExitsThree() throws {
        daemon.stop()
        let result = try pb("paste")
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("cannot reach pasteboardd"), result.stderr)
    }

    func testUsageErrorsExitTwo() throws {
        XCTAssertEqual(try pb("paste", "--item", "-1").status, 2)
        XCTAssertEqual(try pb("frobnicate").status, 2)
        let unknownType = try pb("copy", "-t", "public.pgn", stdin: Data("x".utf8))
        XCTAssertEqual(unknownType.status, 2)
        XCTAssertTrue(unknownType.stderr.contains("unknown type 'public.pgn'"), unknownType.stderr)
        XCTAssertEqual(try pb("copy", "-p", "bad name!", stdin: Data("x".utf8)).status, 2)
        XCTAssertEqual(try pb("copy", "--rep", "novalue").status, 2)
        XCTAssertEqual(try changeCount(), 0, "nothing reached the daemon")
    }

    func testMissingInputFileFailsWithoutTouchingThePasteboard() throws {
        try pbOK("copy", stdin: Data("before".utf8))
        let result = try pb("copy", sandbox.path("no-such-file"))
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("cannot open"), result.stderr)
        XCTAssertEqual(try pbOK("paste").stdoutText, "before")
    }

    func testOversizeRepresentationIsRefusedAndThePreviousContentKept() throws {
        daemon.stop()
        daemon = try DaemonProcess.started(in: sandbox, arguments: ["--max-representation-size", "1000"])
        try pbOK("copy", stdin: Data("small".utf8))
        let result = try pb("copy", stdin: Data(repeating: 7, count: 5000))
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("over max-representation-size"), result.stderr)
        XCTAssertTrue(result.stderr.contains("--lazy"), "the refusal says what to do: \(result.stderr)")
        XCTAssertEqual(try pbOK("paste").stdoutText, "small")
    }

    func testWatchReportsEveryChange() throws {
        let watch = try startWatch()
        XCTAssertEqual(watch.stdoutText, "0 (empty)\n", "the first line is the current content")
        try pbOK("copy", "--rep", "public.html=<p>", "--rep", "public.utf8-plain-text=p")
        XCTAssertTrue(eventually { watch.stdoutText.hasSuffix("1 public.html,public.utf8-plain-text\n") }, watch.stdoutText)
        try pbOK("copy", "-p", "other", stdin: Data("ignored".utf8))
        try pbOK("clear")
        XCTAssertTrue(eventually { watch.stdoutText.hasSuffix("2 (empty)\n") }, watch.stdoutText)
        XCTAssertEqual(watch.stdoutText, "0 (empty)\n1 public.html,public.utf8-plain-text\n2 (empty)\n", "changes of other pasteboards are not reported")
    }

    func testWatchJSONLinesCarryTheChangeCountAndTypes() throws {
        let watch = try startWatch("--json", "-p", "clips")
        try pbOK("copy", "-p", "clips", stdin: Data("x".utf8))
        XCTAssertTrue(eventually { watch.stdoutText.split(separator: "\n").count == 2 }, watch.stdoutText)
        let line = try XCTUnwrap(watch.stdoutText.split(separator: "\n").last)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(object["changeCount"] as? Int, 1)
        XCTAssertEqual(object["pasteboard"] as? String, "clips")
    }
}

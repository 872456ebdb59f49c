import CPasteboardSystem
import Foundation
import Glibc
import PasteboardSystem
import XCTest

/// pb starts the daemon itself; these tests run without a daemon of their own.
final class AutoStartTests: XCTestCase {
    var sandbox: Sandbox!

    override func setUpWithError() throws { sandbox = try Sandbox() }

    override func tearDown() {
        if let text = try? String(contentsOfFile: sandbox.socketPath + ".lock", encoding: .utf8),
           let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            kill(pid, SIGTERM)
            let deadline = Date().addingTimeInterval(5)
            while kill(pid, 0) == 0, Date() < deadline { usleep(10_000) }
        }
        sandbox.remove()
    }

    func testCopyOnAFreshMachineStartsTheDaemon() throws {
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.socketPath))
        let copy = try runTool("pb", ["copy"], stdin: Data("hi\n".utf8), environment: sandbox.environment(autoStart: true), in: sandbox)
        XCTAssertEqual(copy.status, 0, copy.stderr)
        let paste = try runTool("pb", ["paste"], environment: sandbox.environment(autoStart: true), in: sandbox)
        XCTAssertEqual(paste.stdoutText, "hi\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: sandbox.socketPath + ".log"), "the started daemon logs beside its socket")
    }

    func testConcurrentFirstCallsShareOneDaemon() throws {
        let environment = sandbox.environment(autoStart: true)
        var processes: [Process] = []
        for index in 0..<4 {
            let process = Process()
            process.executableURL = Binaries.url("pb")
            process.arguments = ["copy", "--rep", "public.utf8-plain-text=\(index)", "-p", "p\(index)"]
            process.environment = environment
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            processes.append(process)
        }
        for process in processes { try process.run() }
        for process in processes { process.waitUntilExit() }
        let results = processes.map(\.terminationStatus)
        XCTAssertEqual(results, [0, 0, 0, 0])
        for index in 0..<4 {
            let paste = try runTool("pb", ["paste", "-p", "p\(index)"], environment: environment, in: sandbox)
            XCTAssertEqual(paste.stdoutText, "\(index)", "every copy reached the one daemon that won")
        }
    }

    func testAStaleSocketIsReplaced() throws {
        try FileManager.default.createDirectory(atPath: sandbox.socketDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // A socket file nobody listens on, as a crashed daemon leaves behind.
        let fd = pasteboard_unix_socket(sandbox.socketPath, 0)
        XCTAssertGreaterThanOrEqual(fd, 0, SystemError.current)
        close(fd)
        XCTAssertThrowsError(try RawClient(socketPath: sandbox.socketPath), "nobody listens on the stale socket")

        let copy = try runTool("pb", ["copy"], stdin: Data("fresh".utf8), environment: sandbox.environment(autoStart: true), in: sandbox)
        XCTAssertEqual(copy.status, 0, copy.stderr)
        let paste = try runTool("pb", ["paste"], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(paste.stdoutText, "fresh")
    }

    func testAStartThatFailsIsReportedQuickly() throws {
        // A socket directory writable by others is refused, so the started daemon exits at once.
        try FileManager.default.createDirectory(atPath: sandbox.socketDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        chmod(sandbox.socketDirectory, 0o777)
        let result = try runTool("pb", ["paste"], environment: sandbox.environment(autoStart: true), in: sandbox)
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("exited with status 1"), result.stderr)
    }
}

import Foundation
import Glibc
import PasteboardSystem
import TestSupport
import XCTest

/// pasteboardd started by systemd's socket activation, through `systemd-socket-activate` (from
/// Debian's systemd package), which listens on a socket, then on the first connection execs the
/// daemon with the socket as descriptor 3 and LISTEN_PID / LISTEN_FDS set, as systemd does.
final class SocketActivationTests: XCTestCase {
    var sandbox: Sandbox!
    private var activated: SpawnedProcess?

    /// The repository's `Config/systemd` directory.
    static let unitDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Config/systemd")

    override func setUpWithError() throws {
        sandbox = try Sandbox()
    }

    override func tearDown() {
        activated?.stop()
        activated = nil
        sandbox?.remove()
    }

    private static let missingSystemd = "is not installed: install Debian's systemd package (apt-get install systemd) to test socket activation"

    /// The file at `path`, as lstat sees it.
    private func status(_ path: String) -> stat? {
        var info = stat()
        return lstat(path, &info) == 0 ? info : nil
    }

    /// `pasteboardd` under `systemd-socket-activate -l SOCKET`, passing on the sandbox's directories
    /// (it passes only a few variables by itself) and a `PASTEBOARD_SOCKET` that points elsewhere:
    /// the daemon must serve the socket it is given.
    private func startActivated(_ activate: String) throws -> SpawnedProcess {
        try FileManager.default.createDirectory(atPath: sandbox.socketDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let passed = ["XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_DATA_DIRS"].flatMap { ["-E", $0] }
            + ["-E", "PASTEBOARD_SOCKET=" + sandbox.path("elsewhere/pasteboardd.sock")]
        // Not a Foundation Process: systemd-socket-activate closes the descriptor Foundation watches (see SpawnedProcess).
        let daemon = try SpawnedProcess(
            activate, ["-l", sandbox.socketPath] + passed + [Binaries.url("pasteboardd").path],
            environment: sandbox.environment(), in: sandbox)
        activated = daemon
        XCTAssertTrue(eventually { self.status(self.sandbox.socketPath) != nil }, "systemd-socket-activate did not listen: \(daemon.log)")
        return daemon
    }

    private func pb(_ arguments: String..., stdin: Data = Data()) throws -> ProcessResult {
        try runTool("pb", arguments, stdin: stdin, environment: sandbox.environment(), in: sandbox)
    }

    func testTheDaemonServesThePassedSocketAndLeavesItsFileToSystemd() throws {
        guard let activate = executableInPath("systemd-socket-activate") else {
            return XCTFail("systemd-socket-activate " + Self.missingSystemd)
        }
        let daemon = try startActivated(activate)
        let socket = try XCTUnwrap(status(sandbox.socketPath))

        XCTAssertEqual(try pb("copy", stdin: Data("activated".utf8)).status, 0)
        XCTAssertEqual(try pb("paste").stdoutText, "activated")
        XCTAssertTrue(eventually { daemon.log.contains("] listening") }, daemon.log)
        let listening = try XCTUnwrap(daemon.log.split(separator: "\n").first { $0.contains("] listening") }).description
        XCTAssertTrue(listening.contains("activation=systemd"), listening)
        XCTAssertTrue(listening.contains("socket=\(sandbox.socketPath) "), "the daemon reports the socket it was passed: \(listening)")
        XCTAssertTrue(listening.contains("handoff=\(sandbox.socketPath).handoff"), listening)
        XCTAssertEqual(status(sandbox.socketPath + ".handoff").map { $0.st_mode & S_IFMT }, S_IFSOCK, "the hand-off socket is beside it")
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.path("elsewhere")), "PASTEBOARD_SOCKET was not used")

        // systemd-socket-activate execs the daemon: its pid holds the single-instance lock.
        let second = try runTool("pasteboardd", ["--socket", sandbox.socketPath], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(second.status, 1)
        XCTAssertTrue(second.stderr.contains("already serving \(sandbox.socketPath)"), second.stderr)
        XCTAssertTrue(second.stderr.contains("pid \(daemon.pid)"), second.stderr)
        XCTAssertEqual(try pb("paste").stdoutText, "activated", "the second daemon left the socket alone")

        daemon.signal(SIGTERM)
        XCTAssertEqual(daemon.waitForExit(), 0, daemon.log)
        XCTAssertTrue(daemon.log.contains("] stopped"), daemon.log)
        // Nothing else runs after the exec, so whatever happened to the socket file was the daemon's doing.
        let after = try XCTUnwrap(status(sandbox.socketPath), "the daemon removed the socket systemd owns")
        XCTAssertEqual(after.st_ino, socket.st_ino, "the daemon replaced the socket systemd owns")
        XCTAssertEqual(after.st_mode & S_IFMT, S_IFSOCK)
        XCTAssertNil(status(sandbox.socketPath + ".handoff"), "the daemon removes its own hand-off socket")
    }

    func testAPassedDescriptorThatIsNotASocketIsAClearError() throws {
        let file = sandbox.path("not-a-socket")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: file))
        // As systemd would: LISTEN_PID is the daemon's pid (bash execs it), descriptor 3 is passed.
        let result = try runTool(
            "/bin/bash", ["-c", "export LISTEN_PID=$$ LISTEN_FDS=1; exec \"$0\" 3<\"$1\"", Binaries.url("pasteboardd").path, file],
            environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains(
            "cannot serve the socket systemd passed (LISTEN_FDS): descriptor 3 is not a socket but a regular file"), result.stderr)
        XCTAssertNil(status(sandbox.socketPath), "the daemon bound no socket of its own instead")
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "keep me")
    }

    func testTheUserUnitsAreValidAndListenOnTheDefaultSocket() throws {
        let socketUnit = try String(contentsOf: Self.unitDirectory.appendingPathComponent("pasteboardd.socket"), encoding: .utf8)
        let lines = socketUnit.split(separator: "\n").map(String.init)
        let listen = try XCTUnwrap(lines.first { $0.hasPrefix("ListenStream=") }).dropFirst("ListenStream=".count)
        XCTAssertEqual(listen.replacingOccurrences(of: "%t", with: "/run/user/1000"),
                       SocketLocation.socketPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]),
                       "the socket unit listens where pb and pasteboardd look by default")
        XCTAssertTrue(lines.contains("SocketMode=0600"))
        XCTAssertTrue(lines.contains("DirectoryMode=0700"))

        guard let analyze = executableInPath("systemd-analyze") else { return XCTFail("systemd-analyze " + Self.missingSystemd) }
        // The service starts ~/.local/bin/pasteboardd; verify checks that it exists.
        let bin = sandbox.path("home/.local/bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/pasteboardd", withDestinationPath: Binaries.url("pasteboardd").path)
        try FileManager.default.createSymbolicLink(atPath: bin + "/pasteboard-bridge", withDestinationPath: Binaries.url("pasteboard-bridge").path)
        let runtime = sandbox.path("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var environment = sandbox.environment()
        environment["HOME"] = sandbox.path("home")
        environment["XDG_RUNTIME_DIR"] = runtime
        let units = ["pasteboardd.socket", "pasteboardd.service", "pasteboard-bridge.service"].map { Self.unitDirectory.appendingPathComponent($0).path }
        let result = try runTool(analyze, ["--user", "verify", "--man=no"] + units, environment: environment, in: sandbox)
        XCTAssertEqual(result.status, 0, "systemd-analyze --user verify: \(result.stdoutText)\(result.stderr)")
        XCTAssertEqual(result.stdoutText + result.stderr, "", "systemd-analyze --user verify warns")
    }
}

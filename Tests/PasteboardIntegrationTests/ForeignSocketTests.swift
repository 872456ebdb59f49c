import Foundation
import Glibc
@testable import Pasteboard
import PasteboardProtocol
import XCTest

/// Another user listening where `pb` looks for its daemon: at the `/tmp/pasteboard-$UID`
/// fallback (made first by that user, so the real daemon refuses to start there), or at an
/// explicit `PASTEBOARD_SOCKET` in a shared directory. `pb` and the client library must send
/// that user nothing (`--sensitive` copies included), print nothing of theirs, and say which
/// path belongs to whom, exiting 3 as for an unreachable daemon. The impostor is
/// Tests/Fixtures/impostor_daemon.py, which answers as a daemon would and reports every byte
/// it receives before it answers.
final class ForeignSocketTests: XCTestCase {
    /// The uid the impostors run as.
    private let impostorUID: UInt32 = 65534
    private var sandbox: Sandbox!
    private var impostors: [ToolProcess] = []
    /// Directories a test made at the default path of another uid, removed at tearDown.
    private var defaultDirectories: [String] = []

    override func setUpWithError() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to run the impostor and pb as other uids") }
        sandbox = try Sandbox()
        chmod(sandbox.root.path, 0o755)
    }

    override func tearDown() {
        for impostor in impostors { impostor.stop() }
        impostors = []
        for directory in defaultDirectories { try? FileManager.default.removeItem(atPath: directory) }
        sandbox?.remove()
    }

    // MARK: - The default path

    func testAnImpostorAtTheDefaultPathGetsNothingFromCopySensitiveAndIsNotPasted() throws {
        let victim = unusedUID()
        let directory = defaultDirectory(of: victim)
        let impostor = try startImpostor(at: directory + "/pasteboardd.sock")
        // The quick path (BlockingConnection), then the full one (PasteboardConnection).
        for arguments in [["copy", "--sensitive"], ["copy", "--sensitive", "--rep", "public.utf8-plain-text=hunter2"], ["paste"], ["list"]] {
            let result = try pbAsDefaultUser(victim, arguments, stdin: Data("hunter2".utf8))
            XCTAssertEqual(result.status, 3, "pb \(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("refusing to talk to \(directory)/pasteboardd.sock"), "pb \(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("its directory \(directory) is owned by uid \(impostorUID), not by this user (uid \(victim))"),
                          "pb \(arguments): \(result.stderr)")
            XCTAssertFalse(result.stdoutText.contains("IMPOSTOR"), "pb \(arguments) printed the impostor's data")
        }
        XCTAssertEqual(receivedBytes(impostor), 0, "the impostor received bytes: \(impostor.stderrLines)")
    }

    func testADefaultSocketDirectoryOthersCanWriteIsRefusedAndNoDaemonIsStartedThere() throws {
        let victim = unusedUID()
        let directory = defaultDirectory(of: victim)
        for mode: mode_t in [0o777, 0o770] {
            XCTAssertEqual(mkdir(directory, 0o700), 0)
            XCTAssertEqual(chown(directory, victim, victim), 0)
            chmod(directory, mode)
            for arguments in [["paste"], ["copy", "--rep", "public.utf8-plain-text=hunter2"]] {
                let result = try pbAsDefaultUser(victim, arguments, stdin: Data("hunter2".utf8))
                XCTAssertEqual(result.status, 3, "pb \(arguments): \(result.stderr)")
                XCTAssertTrue(
                    result.stderr.contains("its directory \(directory), owned by uid \(victim), is writable by group or others (mode \(String(mode, radix: 8)))"),
                    "pb \(arguments): \(result.stderr)"
                )
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [],
                           "pb started no daemon there (no socket, no log)")
            XCTAssertEqual(rmdir(directory), 0)
        }
    }

    // MARK: - An explicit socket

    func testAnImpostorAtAnExplicitSocketInASharedDirectoryIsRefusedByItsUid() throws {
        let shared = sandbox.path("shared")
        XCTAssertEqual(mkdir(shared, 0o700), 0)
        chmod(shared, 0o1777)  // as /tmp
        let socket = shared + "/pb-user.sock"
        let impostor = try startImpostor(at: socket)
        var environment = sandbox.environment(autoStart: true)
        environment["PASTEBOARD_SOCKET"] = socket
        for arguments in [["copy", "--sensitive"], ["copy", "--sensitive", "--rep", "public.utf8-plain-text=hunter2"], ["paste"], ["list"]] {
            let result = try runTool("pb", arguments, stdin: Data("hunter2".utf8), environment: environment, in: sandbox)
            XCTAssertEqual(result.status, 3, "pb \(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("refusing to talk to \(socket): the process listening there runs as uid \(impostorUID), not as this user (uid 0)"),
                          "pb \(arguments): \(result.stderr)")
            XCTAssertFalse(result.stdoutText.contains("IMPOSTOR"), "pb \(arguments) printed the impostor's data")
        }
        // The Python client written from pasteboard-protocol(7) checks the same.
        let interop = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Interop/pasteboard_client.py").path
        let python = try runTool("/usr/bin/python3", [interop, "paste"], environment: environment, in: sandbox)
        XCTAssertEqual(python.status, 1, python.stderr)
        XCTAssertTrue(python.stderr.contains("runs as uid \(impostorUID)"), python.stderr)
        XCTAssertFalse(python.stdoutText.contains("IMPOSTOR"), "the Python client printed the impostor's data")
        XCTAssertEqual(receivedBytes(impostor), 0, "the impostor received bytes: \(impostor.stderrLines)")
    }

    // MARK: - The library

    func testBothConnectionTypesRefuseAPeerOfAnotherUidBeforeSendingAByte() async throws {
        let socket = sandbox.path("impostor/pasteboardd.sock")
        let impostor = try startImpostor(at: socket)
        do {
            try await PasteboardConnection.withConnection(socketPath: socket, clientName: "tests", autoStart: false) { _ in
                XCTFail("PasteboardConnection connected to another user's socket")
            }
            XCTFail("PasteboardConnection connected to another user's socket")
        } catch PasteboardError.untrustedSocket(let path, let reason) {
            XCTAssertEqual(path, socket)
            XCTAssertTrue(reason.contains("runs as uid \(impostorUID)"), reason)
        }
        do {
            let connection = try BlockingConnection(socketPath: socket, clientName: "tests")
            _ = try connection.welcome
            XCTFail("BlockingConnection connected to another user's socket")
        } catch PasteboardError.untrustedSocket(let path, let reason) {
            XCTAssertEqual(path, socket)
            XCTAssertTrue(reason.contains("runs as uid \(impostorUID)"), reason)
        }
        XCTAssertEqual(receivedBytes(impostor), 0, "the impostor received bytes: \(impostor.stderrLines)")
    }

    /// The hand-off socket is checked as the main one: its peer must be the welcome's pid and run
    /// as this user, or the connection's token is not written to it.
    func testTheHandoffSocketOfAnotherUidGetsNoToken() throws {
        let socket = sandbox.path("impostor/handoff.sock")
        let impostor = try startImpostor(at: socket)
        let offer = HandoffOffer(path: socket, token: String(repeating: "a", count: 32))
        XCTAssertNil(HandoffChannel.attach(offer, daemonPID: impostor.process.processIdentifier),
                     "attached to another user's hand-off socket")
        XCTAssertEqual(receivedBytes(impostor), 0, "the impostor received bytes: \(impostor.stderrLines)")
    }

    // MARK: - Helpers

    /// A uid with no account and no `/tmp/pasteboard-<uid>` yet: the user `pb` runs as when it
    /// derives its socket path.
    private func unusedUID() -> UInt32 {
        var uid = UInt32(40_000 + getpid() % 20_000)
        while getpwuid(uid) != nil || access("/tmp/pasteboard-\(uid)", F_OK) == 0 { uid += 1 }
        return uid
    }

    /// `/tmp/pasteboard-<uid>`, removed at tearDown.
    private func defaultDirectory(of uid: UInt32) -> String {
        let directory = "/tmp/pasteboard-\(uid)"
        defaultDirectories.append(directory)
        return directory
    }

    /// Starts the impostor as `impostorUID` listening on `socket` (making its directory, owned
    /// by that uid, if missing).
    private func startImpostor(at socket: String) throws -> ToolProcess {
        let python = "/usr/bin/python3"
        guard access(python, X_OK) == 0 else { throw XCTSkip("\(python) is missing: the impostor is a Python script") }
        // A copy in the sandbox (0755), which the impostor's uid can read: the checkout itself
        // may be private to its owner (a clone in a 0700 directory).
        let original = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/impostor_daemon.py")
        let script = sandbox.path("impostor_daemon.py")
        if !FileManager.default.fileExists(atPath: script) {
            try FileManager.default.copyItem(at: original, to: URL(fileURLWithPath: script))
            chmod(script, 0o644)
        }
        let directory = (socket as NSString).deletingLastPathComponent
        if directory.hasPrefix(sandbox.root.path), !FileManager.default.fileExists(atPath: directory) {
            XCTAssertEqual(mkdir(directory, 0o755), 0)
            XCTAssertEqual(chown(directory, impostorUID, impostorUID), 0)
        }
        let impostor = try ToolProcess("/usr/bin/setpriv", [
            "--reuid=\(impostorUID)", "--regid=\(impostorUID)", "--clear-groups", python, script, socket, "IMPOSTOR DATA",
        ], environment: ["PATH": "/usr/bin:/bin"], in: sandbox)
        impostors.append(impostor)
        XCTAssertNotNil(impostor.waitForLine { $0 == "listening" }, "the impostor did not listen: \(impostor.stderrLines)")
        return impostor
    }

    /// The bytes the impostor has reported receiving.
    private func receivedBytes(_ impostor: ToolProcess) -> Int {
        impostor.stderrLines.compactMap { $0.hasPrefix("received ") ? Int($0.dropFirst("received ".count)) : nil }.reduce(0, +)
    }

    /// Runs pb as `uid` with the socket path it derives itself (no `PASTEBOARD_SOCKET`, no
    /// `XDG_RUNTIME_DIR`: `/tmp/pasteboard-<uid>/pasteboardd.sock`), auto-start allowed.
    private func pbAsDefaultUser(_ uid: UInt32, _ arguments: [String], stdin: Data) throws -> ProcessResult {
        var environment = sandbox.environment(autoStart: true)
        environment.removeValue(forKey: "PASTEBOARD_SOCKET")
        environment.removeValue(forKey: "XDG_RUNTIME_DIR")
        environment["XDG_CONFIG_HOME"] = "/nonexistent"
        environment["HOME"] = "/nonexistent"
        return try runTool("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", Binaries.url("pb").path] + arguments,
                           stdin: stdin, environment: environment, in: sandbox)
    }
}

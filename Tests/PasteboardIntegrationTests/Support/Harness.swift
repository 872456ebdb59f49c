import Foundation
import XCTest

/// The result of running one of the project's executables.
struct ProcessResult {
    let status: Int32
    let stdout: Data
    let stderr: String
    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
}

/// A scratch directory per test, with the socket, config and files of that test.
final class Sandbox: Sendable {
    let root: URL
    var socketPath: String { root.appendingPathComponent("run/pasteboardd.sock").path }
    var socketDirectory: String { root.appendingPathComponent("run").path }
    /// Where the daemon keeps its pasteboards ($XDG_STATE_HOME/pasteboard).
    var stateDirectory: String { root.appendingPathComponent("state/pasteboard").path }
    /// The daemon's configuration file ($XDG_CONFIG_HOME/pasteboard/pasteboardd.conf; none at first).
    var configurationFile: String { root.appendingPathComponent("config/pasteboard/pasteboardd.conf").path }

    /// Writes the daemon's configuration file.
    func writeConfiguration(_ text: String) throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent("config/pasteboard"), withIntermediateDirectories: true)
        try text.write(toFile: configurationFile, atomically: true, encoding: .utf8)
    }

    /// `XDG_DATA_DIRS` for every tool: where shared-mime-info databases (`<dir>/mime`) are found.
    let dataDirectories: [String]

    /// A new sandbox whose tools see shared-mime-info only in `dataDirectories` (by default none,
    /// so tests do not depend on the host's `/usr/share/mime`).
    init(dataDirectories: [String]? = nil) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("pbtest-\(UUID().uuidString.prefix(8))")
        self.dataDirectories = dataDirectories ?? [root.appendingPathComponent("data").path]
        try FileManager.default.createDirectory(at: root.appendingPathComponent("config"), withIntermediateDirectories: true)
    }

    /// The environment every tool runs with: this sandbox's socket, config and data directories,
    /// no auto-start unless a test asks for it.
    func environment(autoStart: Bool = false) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PASTEBOARD_SOCKET"] = socketPath
        environment["XDG_CONFIG_HOME"] = root.appendingPathComponent("config").path
        environment["XDG_DATA_HOME"] = root.appendingPathComponent("data").path
        environment["XDG_DATA_DIRS"] = dataDirectories.joined(separator: ":")
        environment["XDG_STATE_HOME"] = root.appendingPathComponent("state").path
        environment.removeValue(forKey: "PASTEBOARD_NO_AUTOSTART")
        if !autoStart { environment["PASTEBOARD_NO_AUTOSTART"] = "1" }
        // The developer's desktop is not the tests': a daemon started here must never bridge
        // (take over) that desktop's clipboard. Tests of the bridge give it their own display.
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "WAYLAND_SOCKET"] { environment.removeValue(forKey: name) }
        return environment
    }

    func path(_ name: String) -> String { root.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

/// Where `swift build` put pb and pasteboardd: beside the test bundle's executable.
enum Binaries {
    static let directory: URL = {
        let own = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        return own.deletingLastPathComponent()
    }()

    /// One of our executables by name, or any program by absolute path.
    static func url(_ name: String) -> URL {
        name.hasPrefix("/") ? URL(fileURLWithPath: name) : directory.appendingPathComponent(name)
    }
}

/// How long `runTool` lets a tool run before it kills it and fails the test, in seconds.
let runToolLimit = 1200

/// Runs `tool` (one of ours by name, or an absolute path) to completion with `stdin` bytes, returning its status and output.
func runTool(_ tool: String, _ arguments: [String], stdin: Data = Data(), environment: [String: String], in sandbox: Sandbox) throws -> ProcessResult {
    let id = UUID().uuidString.prefix(8)
    let inPath = sandbox.path("stdin-\(id)"), outPath = sandbox.path("stdout-\(id)"), errPath = sandbox.path("stderr-\(id)")
    try stdin.write(to: URL(fileURLWithPath: inPath))
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    defer { for path in [inPath, outPath, errPath] { try? FileManager.default.removeItem(atPath: path) } }
    let process = Process()
    process.executableURL = Binaries.url(tool)
    process.arguments = arguments
    process.environment = environment
    process.standardInput = FileHandle(forReadingAtPath: inPath)
    process.standardOutput = FileHandle(forWritingAtPath: outPath)
    process.standardError = FileHandle(forWritingAtPath: errPath)
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    // A safety net, not a timing: a tool that hangs fails its test (and is killed) instead of
    // holding the whole suite until CI's limit. The longest legitimate run, a client package's
    // first build on a loaded machine, takes minutes.
    if exited.wait(timeout: .now() + .seconds(runToolLimit)) == .timedOut {
        kill(process.processIdentifier, SIGKILL)
        exited.wait()
        XCTFail("\(tool) \(arguments.joined(separator: " ")) did not end within \(runToolLimit) s and was killed")
    }
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus,
        stdout: try Data(contentsOf: URL(fileURLWithPath: outPath)),
        stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
    )
}

/// A `pasteboardd` started by a test on the sandbox's socket: a `ToolProcess` whose stderr is
/// the daemon's log.
final class DaemonProcess {
    let tool: ToolProcess
    var process: Process { tool.process }

    /// Starts pasteboardd with `arguments`; with `fileSizeLimitKiB`, under that file-size limit
    /// (`ulimit -f`), so its writes fail as on a full disk. `display` adds variables to its
    /// environment (a bridge test's own `DISPLAY`, `WAYLAND_DISPLAY`, `XAUTHORITY`).
    init(sandbox: Sandbox, arguments: [String] = [], fileSizeLimitKiB: Int? = nil, display: [String: String] = [:]) throws {
        let environment = sandbox.environment().merging(display) { $1 }
        if let fileSizeLimitKiB {
            tool = try ToolProcess("/bin/bash", ["-c", "ulimit -f \(fileSizeLimitKiB) && exec \"$0\" \"$@\"", Binaries.url("pasteboardd").path] + arguments,
                                   environment: environment, in: sandbox)
        } else {
            tool = try ToolProcess("pasteboardd", arguments, environment: environment, in: sandbox)
        }
    }

    /// Starts a daemon and waits until it accepts connections.
    static func started(in sandbox: Sandbox, arguments: [String] = [], fileSizeLimitKiB: Int? = nil, display: [String: String] = [:]) throws -> DaemonProcess {
        let daemon = try DaemonProcess(sandbox: sandbox, arguments: arguments, fileSizeLimitKiB: fileSizeLimitKiB, display: display)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let client = try? RawClient(socketPath: sandbox.socketPath) {
                client.close()
                return daemon
            }
            if !daemon.process.isRunning { break }
            usleep(5_000)
        }
        throw XCTSkip("pasteboardd did not start: \(daemon.log)")
    }

    /// Everything the daemon logged so far.
    var log: String { tool.stderrLines.map { $0 + "\n" }.joined() }

    /// Sends `number` to the daemon.
    func signal(_ number: Int32) {
        tool.signal(number)
    }

    /// Waits (up to 10 seconds) until `count` lines of the log contain `text`; false if they never do.
    func waitForLog(_ text: String, count: Int = 1) -> Bool {
        tool.waitForLines(count: count, timeout: 10) { $0.contains(text) }
    }

    /// SIGKILL, then wait: the daemon gets no chance to clean up.
    func kill9() {
        tool.stop()
    }

    /// SIGTERM, then wait; returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        return process.terminationStatus
    }
}

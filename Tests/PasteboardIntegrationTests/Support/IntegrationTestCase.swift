import Foundation
import TestSupport
import XCTest

/// A test with its own sandbox and a daemon listening in it: a real pasteboardd process
/// (`daemon`), or, for a class whose `daemonRunsInProcess` is true, the daemon's server in this
/// test process (`inProcessDaemon`), for tests of pb, the library or the protocol
/// where a separate process is not the point.
class IntegrationTestCase: XCTestCase {
    var sandbox: Sandbox!
    /// The pasteboardd process (nil in a class whose daemon runs in process).
    var daemon: DaemonProcess!
    /// The server in this process (nil in a class whose daemon is a process).
    var inProcessDaemon: InProcessDaemon?
    private var background: [ToolProcess] = []

    /// Whether setUp starts the daemon's server in this process instead of a pasteboardd: true for
    /// a class that never signals, kills, measures or reads the environment of the daemon's process.
    class var daemonRunsInProcess: Bool { false }

    /// The options setUp starts the daemon with (pasteboardd's).
    class var daemonArguments: [String] { [] }

    /// Whether setUp starts the daemon: false for a class whose tests start it themselves (with a
    /// display of their own in its environment) or need none (an X server and its peers only).
    class var startsDaemonInSetUp: Bool { true }

    override func setUpWithError() throws {
        sandbox = try Sandbox()
        if Self.startsDaemonInSetUp { try startDaemon(arguments: Self.daemonArguments) }
    }

    /// Stops `tool` (a peer the test started) at tearDown, with the test's own background tools.
    @discardableResult
    func stopAtTearDown(_ tool: ToolProcess) -> ToolProcess {
        background.append(tool)
        return tool
    }

    override func tearDown() {
        for tool in background { tool.stop() }
        background = []
        stopDaemon()
        sandbox?.remove()
    }

    /// Starts this test's daemon with `arguments`, in this process or as a pasteboardd as the class
    /// says (a file-size limit or a display always as a process), and waits until it listens.
    func startDaemon(arguments: [String] = [], fileSizeLimitKiB: Int? = nil, display: [String: String] = [:]) throws {
        if Self.daemonRunsInProcess && fileSizeLimitKiB == nil && display.isEmpty {
            inProcessDaemon = try InProcessDaemon.started(in: sandbox, arguments: arguments)
        } else {
            daemon = try DaemonProcess.started(in: sandbox, arguments: arguments, fileSizeLimitKiB: fileSizeLimitKiB, display: display)
        }
    }

    /// Stops this test's daemon as SIGTERM does (`kill9`: a process gets SIGKILL, no chance to clean up).
    func stopDaemon(kill9: Bool = false) {
        if kill9 { daemon?.kill9() } else { daemon?.stop() }
        inProcessDaemon?.stop()
        inProcessDaemon = nil
    }

    /// Stops this test's daemon (see `stopDaemon`) and starts it again with `arguments`.
    func restartDaemon(_ arguments: [String] = [], kill9: Bool = false, fileSizeLimitKiB: Int? = nil, display: [String: String] = [:]) throws {
        stopDaemon(kill9: kill9)
        try startDaemon(arguments: arguments, fileSizeLimitKiB: fileSizeLimitKiB, display: display)
    }

    /// What the daemon logged so far, wherever it runs.
    var daemonLog: String { inProcessDaemon?.log ?? daemon?.log ?? "" }

    /// Waits (up to 10 seconds) until `count` lines of the daemon's log contain `text`.
    func waitForDaemonLog(_ text: String, count: Int = 1) -> Bool {
        if let inProcessDaemon { return inProcessDaemon.waitForLog(text, count: count) }
        return daemon.waitForLog(text, count: count)
    }

    /// Starts `tool` (one of ours by name, or an absolute path) in the background against this
    /// test's daemon (killed at tearDown).
    func start(_ tool: String, _ arguments: [String], environment: [String: String]? = nil) throws -> ToolProcess {
        let process = try ToolProcess(tool, arguments, environment: environment ?? sandbox.environment(), in: sandbox)
        background.append(process)
        return process
    }

    /// Starts `pb` in the background (killed at tearDown).
    func startPB(_ arguments: String...) throws -> ToolProcess {
        try start("pb", arguments)
    }

    /// Starts `pb watch` with `arguments` (no `--exec`) and waits until it watches: its first line,
    /// the current content, is printed once the daemon has it subscribed, so a change made after
    /// this returns is reported.
    func startWatch(_ arguments: String...) throws -> ToolProcess {
        let watch = try start("pb", ["watch"] + arguments)
        XCTAssertTrue(eventually { watch.stdoutText.contains("\n") }, "pb watch never printed the current content: \(watch.stderrLines)")
        return watch
    }

    /// A file in the sandbox of `size` pseudo-random bytes (a cheap generator whose content does
    /// not repeat in pages); returns its path.
    /// Runs `script` with `/bin/sh -c` (`argument` as `$0`) to success; returns `argument`.
    @discardableResult
    func shell(_ script: String, _ argument: String) throws -> String {
        let result = try runTool("/bin/sh", ["-c", script, argument], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(result.status, 0, "\(script): \(result.stderr)")
        return argument
    }

    /// Whether `pb paste` writes exactly the bytes of the file at `path` (compared by `cmp`,
    /// never read into this process).
    func pastedEquals(_ path: String) throws -> Bool {
        let output = sandbox.path("pasted")
        try pbOK("paste", "-o", output)
        defer { try? FileManager.default.removeItem(atPath: output) }
        return try runTool("/usr/bin/cmp", [path, output], environment: sandbox.environment(), in: sandbox).status == 0
    }

    func randomFile(_ name: String, size: Int) throws -> String {
        let path = sandbox.path(name)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(size)
        var data = Data(count: size)
        data.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for index in words.indices {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                words[index] = state
            }
        }
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs `pb` against this test's daemon.
    @discardableResult
    func pb(_ arguments: String..., stdin: Data = Data(), autoStart: Bool = false) throws -> ProcessResult {
        try runTool("pb", arguments, stdin: stdin, environment: sandbox.environment(autoStart: autoStart), in: sandbox)
    }

    /// Runs `pb` and fails the test unless it exits 0.
    @discardableResult
    func pbOK(_ arguments: String..., stdin: Data = Data(), file: StaticString = #filePath, line: UInt = #line) throws -> ProcessResult {
        let result = try runTool("pb", arguments, stdin: stdin, environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(result.status, 0, "pb \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return result
    }

    /// Whether any file under the state directory (the history's included) contains `secret`.
    func stateFilesContain(_ secret: String) throws -> Bool {
        let names = FileManager.default.subpaths(atPath: sandbox.stateDirectory) ?? []
        return try names.contains { name in
            let path = sandbox.stateDirectory + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { return false }
            return try Data(contentsOf: URL(fileURLWithPath: path)).range(of: Data(secret.utf8)) != nil
        }
    }

    /// `pb list --json` decoded.
    func listing(_ pasteboard: String = "general") throws -> [String: Any] {
        let result = try pbOK("list", "-p", pasteboard, "--json")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    }

    /// The first item's representations from `pb list --json`, each its type with ` lazy`
    /// added when a live source produces it.
    func representations(_ pasteboard: String = "general") throws -> [String] {
        let items = try XCTUnwrap(listing(pasteboard)["items"] as? [[String: Any]])
        let first = try XCTUnwrap(items.first?["representations"] as? [[String: Any]])
        return first.map { "\($0["type"] as? String ?? "?")\(($0["lazy"] as? Bool) == true ? " lazy" : "")" }
    }

    func changeCount(_ pasteboard: String = "general") throws -> Int {
        try XCTUnwrap(listing(pasteboard)["changeCount"] as? Int)
    }

    /// Waits until a lazy source's items are on the pasteboard.
    func waitForLazyItems(count: Int = 1) throws {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let items = try? listing()["items"] as? [[String: Any]], items.count == count,
               items.allSatisfy({ (($0["representations"] as? [[String: Any]])?.first?["lazy"] as? Bool) == true }) {
                return
            }
            usleep(10_000)
        }
        XCTFail("the lazy source's items never appeared")
    }

    /// The `progress COMPLETED TOTAL` lines among `lines` (TOTAL is `?` when unknown).
    func progressLines(_ lines: [String]) -> [(completed: Int, total: Int?)] {
        lines.compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[0] == "progress", let completed = Int(fields[1]) else { return nil }
            return (completed, Int(fields[2]))
        }
    }
}

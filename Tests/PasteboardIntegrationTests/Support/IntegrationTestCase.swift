import Foundation
import XCTest

/// A test with its own sandbox and a real pasteboardd listening in it.
class IntegrationTestCase: XCTestCase {
    var sandbox: Sandbox!
    var daemon: DaemonProcess!
    private var background: [ToolProcess] = []

    override func setUpWithError() throws {
        sandbox = try Sandbox()
        daemon = try DaemonProcess.started(in: sandbox)
    }

    override func tearDown() {
        for tool in background { tool.stop() }
        background = []
        daemon?.stop()
        sandbox?.remove()
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

import Foundation
import Glibc
import XCTest

/// One "machine" of a linked-daemons test: a sandbox of its own (runtime directory 0700, state,
/// configuration with `machine-name = NAME`, home), its own `pasteboardd`, and the environment
/// its programs run with, so that two of them on one host know nothing of each other but what
/// crosses a link.
final class LinkedMachine {
    /// The machine's name (`machine-name`), which its peers' link status shows.
    let name: String
    let sandbox: Sandbox
    private(set) var daemon: DaemonProcess?

    /// The runtime directory (`XDG_RUNTIME_DIR`), which holds the daemon's socket.
    var runtimeDirectory: String { sandbox.socketDirectory }
    var home: String { sandbox.path("home") }

    init(name: String) throws {
        self.name = name
        sandbox = try Sandbox()
        guard mkdir(runtimeDirectory, 0o700) == 0 else { throw RawClient.Failure(description: "mkdir \(runtimeDirectory): \(errno)") }
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try sandbox.writeConfiguration("machine-name = \(name)\n")
    }

    /// The environment of this machine's programs: the sandbox's (its socket, state, config, no
    /// auto-start), with its runtime directory and home, and no `PASTEBOARD_SSH` of the developer's.
    var environment: [String: String] {
        var environment = sandbox.environment()
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["HOME"] = home
        environment.removeValue(forKey: "PASTEBOARD_SSH")
        return environment
    }

    /// The command line that runs this machine's `pb` from a shell sshd started (`--remote-pb`):
    /// `env` with the variables that make it this machine, then the built pb's absolute path.
    var remotePB: String {
        let names = ["PASTEBOARD_SOCKET", "PASTEBOARD_NO_AUTOSTART", "XDG_RUNTIME_DIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME",
                     "XDG_DATA_HOME", "XDG_DATA_DIRS", "HOME"]
        let environment = environment
        let assignments = names.compactMap { name in environment[name].map { "\(name)=\($0)" } }
        return (["env"] + assignments + [Binaries.url("pb").path]).map(Self.quoted).joined(separator: " ")
    }

    /// `word` in single quotes for a shell.
    static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Starts this machine's daemon and waits until it listens.
    func startDaemon() throws {
        daemon = try DaemonProcess.started(in: sandbox)
    }

    /// Stops the daemon (SIGTERM, then wait).
    func stopDaemon() {
        daemon?.stop()
        daemon = nil
    }

    /// Runs this machine's `pb`.
    @discardableResult
    func pb(_ arguments: String..., stdin: Data = Data()) throws -> ProcessResult {
        try runTool("pb", arguments, stdin: stdin, environment: environment, in: sandbox)
    }

    /// Runs this machine's `pb` and fails the test unless it exits 0.
    @discardableResult
    func pbOK(_ arguments: String..., stdin: Data = Data(), file: StaticString = #filePath, line: UInt = #line) throws -> ProcessResult {
        let result = try runTool("pb", arguments, stdin: stdin, environment: environment, in: sandbox)
        XCTAssertEqual(result.status, 0, "pb \(arguments.joined(separator: " ")) on \(name): \(result.stderr)", file: file, line: line)
        return result
    }

    /// Starts this machine's `pb` with `arguments` in the background.
    func startPB(_ arguments: [String]) throws -> ToolProcess {
        try ToolProcess("pb", arguments, environment: environment, in: sandbox)
    }

    /// What `pb paste` prints here (nil when it fails).
    func pasted() -> String? {
        guard let result = try? pb("paste"), result.status == 0 else { return nil }
        return result.stdoutText
    }

    /// `pb list --json` decoded.
    func listing() throws -> [String: Any] {
        let result = try pbOK("list", "--json")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    }

    /// The general pasteboard's change count.
    func changeCount() throws -> Int {
        try XCTUnwrap(listing()["changeCount"] as? Int)
    }

    /// `pb history --json` decoded: the entries, newest first.
    func history() throws -> [[String: Any]] {
        let result = try pbOK("history", "--json")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
    }

    /// The daemon's machine id, from its state directory.
    func machineID() throws -> String {
        try String(contentsOfFile: sandbox.stateDirectory + "/machine-id", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The links `pb link --status --json` lists here (none when it fails).
    func links() -> [[String: Any]] {
        guard let result = try? pb("link", "--status", "--json"), result.status == 0,
              let report = try? JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        else { return [] }
        return report["links"] as? [[String: Any]] ?? []
    }

    /// The status of the link to `destination` (`served` for the end ssh started here), if it runs.
    func link(_ destination: String) -> [String: Any]? {
        links().first { $0["destination"] as? String == destination }
    }

    func remove() {
        stopDaemon()
        sandbox.remove()
    }
}

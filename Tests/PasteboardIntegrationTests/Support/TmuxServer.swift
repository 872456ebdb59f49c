import Foundation
import TestSupport

/// A tmux server of a test's own: its own socket name (`tmux -L`) under the sandbox
/// (`TMUX_TMPDIR`), one detached session `test` of 80×24 running `command`, and the
/// environment from `Sandbox.environmentWithToolsOnPath()`, which tmux hands to its jobs
/// (copy-command, run-shell) as a user's server hands them the environment it started with.
/// The server daemonizes, so it is no child of the test: `killServer()` must be called (tearDown).
final class TmuxServer {
    let tmux: String
    let socketName = "pbtest-\(UUID().uuidString.prefix(8))"
    let environment: [String: String]
    private let sandbox: Sandbox
    private var pid: pid_t?

    /// Starts the server with the configuration file at `configuration`.
    init(tmux: String, configuration: String, command: String, in sandbox: Sandbox) throws {
        self.tmux = tmux
        self.sandbox = sandbox
        var environment = sandbox.environmentWithToolsOnPath()
        environment["TMUX_TMPDIR"] = sandbox.root.path
        self.environment = environment
        // The server forks from this first client and keeps its descriptors: started as a
        // Foundation `Process`, it would hold the socket through which Foundation learns of the
        // client's exit, and `runTool` would wait for the server (see `SpawnedProcess`).
        let start = try SpawnedProcess(tmux, ["-L", socketName, "-f", configuration, "new-session", "-d", "-s", "test", "-x", "80", "-y", "24", command],
                                       environment: environment, in: sandbox)
        guard start.waitForExit(timeout: 20) == 0 else {
            start.stop()
            throw TmuxFailure(description: "tmux new-session did not start a server: \(start.log)")
        }
        pid = try run("display-message", "-p", "#{pid}").stdoutText.split(separator: "\n").first.flatMap { pid_t($0) }
    }

    /// Runs a tmux command against this server.
    @discardableResult
    func run(_ arguments: String...) throws -> ProcessResult {
        try runTool(tmux, ["-L", socketName] + arguments, environment: environment, in: sandbox)
    }

    /// The visible text of the session's pane.
    func pane() throws -> String {
        try run("capture-pane", "-p", "-t", "test").stdoutText
    }

    /// Whether the pane shows a mode (copy mode, or the view mode in which run-shell shows a
    /// failed command's output) rather than its program.
    func paneIsInMode() throws -> Bool {
        try run("display-message", "-p", "-t", "test", "#{pane_in_mode}").stdoutText.hasPrefix("1")
    }

    /// The names of the server's paste buffers.
    func bufferNames() throws -> [String] {
        try run("list-buffers", "-F", "#{buffer_name}").stdoutText.split(separator: "\n").map(String.init)
    }

    /// How many clients are attached.
    func clientCount() throws -> Int {
        try run("list-clients").stdoutText.split(separator: "\n").count
    }

    /// The server did not start.
    struct TmuxFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// `kill-server`, then SIGKILL if the server's process is still running after a bounded
    /// wait (a zombie waiting for its reaper counts as gone).
    func killServer() {
        _ = try? run("kill-server")
        guard let pid else { return }
        self.pid = nil
        let gone = {
            let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: ")").last?.split(separator: " ").first
            return state == nil || state == "Z"
        }
        if !eventually(timeout: 5, gone) { kill(pid, SIGKILL) }
    }
}

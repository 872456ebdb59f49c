import Foundation
import TestSupport

/// A client attached to a `TmuxServer` through a pseudo-terminal that util-linux's `script`
/// opens, so that what `type` writes reaches tmux as keystrokes and goes through its key
/// bindings (prefix `]`) as a user's typing does; `tmux send-keys` would hand the keys to the
/// pane's program instead, and tmux 3.3a has no way to send them through a key table.
final class TmuxClient {
    private let process = Process()
    private let input = Pipe()

    init(script: String, server: TmuxServer) throws {
        process.executableURL = URL(fileURLWithPath: script)
        // The pseudo-terminal starts with no size: give it the session's, or tmux draws nothing.
        process.arguments = ["-qfec", "stty rows 24 cols 80; exec \(server.tmux) -L \(server.socketName) attach -t test", "/dev/null"]
        var environment = server.environment
        environment["TERM"] = "xterm"
        process.environment = environment
        process.standardInput = input
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
    }

    /// Types `keys` on the client's terminal ("\u{02}]" is prefix C-b, then `]`).
    func type(_ keys: String) {
        input.fileHandleForWriting.write(Data(keys.utf8))
    }

    /// Ends `script` (and with its terminal the client) if it still runs, and waits for it.
    func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        if !eventually(timeout: 5, { !self.process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}

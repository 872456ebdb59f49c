import Foundation
import Glibc

/// A program run by a shell that waits for it, for programs that close every descriptor they
/// inherit, as sshd and ssh do: among them the one Foundation's `Process` watches to learn that
/// a child exited (it would then block waiting for a child that still runs, and no other
/// `Process` would finish). The shell keeps that one open, and the program is signalled by its
/// pid, which the shell writes to `pidFile`.
struct ShellWrappedProcess {
    let shell: ToolProcess
    let pidFile: String

    init(_ program: String, _ arguments: [String], pidFile: String, environment: [String: String], in sandbox: Sandbox) throws {
        self.pidFile = pidFile
        shell = try ToolProcess("/bin/sh", ["-c", "\"$0\" \"$@\" & echo $! > '\(pidFile)'; wait $!", program] + arguments,
                                environment: environment, in: sandbox)
    }

    var isRunning: Bool { shell.process.isRunning }

    /// The program's pid, once the shell wrote it (waiting up to `timeout` seconds); nil if it never did.
    func pid(timeout: TimeInterval = 10) -> pid_t? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let text = try? String(contentsOfFile: pidFile, encoding: .utf8)
            if let pid = text.flatMap({ pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) { return pid }
            if !shell.process.isRunning || Date() >= deadline { return nil }
            usleep(10_000)
        }
    }

    /// SIGTERM to the program, then waits for the shell; SIGKILL to both if that fails.
    func stop() {
        let pid = pid()
        if let pid { kill(pid, SIGTERM) }
        if shell.waitForExit(timeout: 10) == nil {
            if let pid { kill(pid, SIGKILL) }
            shell.stop()
        }
    }
}

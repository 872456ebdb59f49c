import Foundation

/// What /proc says about processes a test started.
enum ProcessTree {
    /// The direct children of `pid`.
    static func children(of pid: pid_t) -> [pid_t] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// The command name of `pid` (`comm`).
    static func command(of pid: pid_t) -> String {
        ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The kernel function `pid` sleeps in (`wchan`), such as `pipe_write`.
    static func waitChannel(of pid: pid_t) -> String {
        (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
    }

    /// Kills `process` and its children (a shell pipeline's stages) with SIGKILL, and waits for it.
    static func kill(_ process: ToolProcess) {
        for child in children(of: process.process.processIdentifier) { Glibc.kill(child, SIGKILL) }
        process.stop()
    }
}

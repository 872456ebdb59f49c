import Foundation
import TestSupport

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

    /// The calling thread's id (the last part of `/proc/thread-self`, `PID/task/TID`).
    static func currentThread() -> pid_t {
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
        return pid_t(link.split(separator: "/").last ?? "") ?? getpid()
    }

    /// The kernel function thread `tid` of this process sleeps in (`wchan`).
    static func waitChannel(ofThread tid: pid_t) -> String {
        (try? String(contentsOfFile: "/proc/self/task/\(tid)/wchan", encoding: .utf8)) ?? ""
    }

    /// Runs `body` on another thread once thread `tid` of this process sleeps in poll(2) or
    /// select(2) (a blocking wait has begun), or after `timeout` seconds.
    static func whenBlockedInPoll(thread tid: pid_t, timeout: TimeInterval = 10, _ body: @escaping @Sendable () -> Void) {
        Thread.detachNewThread {
            _ = eventually(timeout: timeout) {
                let channel = waitChannel(ofThread: tid)
                return channel.contains("poll") || channel.contains("select")
            }
            body()
        }
    }

    /// The running processes (not zombies) whose second argument is `argument` and whose
    /// environment holds `entry` (`NAME=value`): a background process a test's command left,
    /// found without matching anyone else's (another test's, the developer's).
    static func processes(withArgument argument: String, environment entry: String) -> [pid_t] {
        processes(environment: entry) { $0.dropFirst().first == argument }
    }

    /// The running processes (not zombies) whose arguments (`argv`, the program's name first)
    /// satisfy `matches` and whose environment holds `entry` (`NAME=value`).
    static func processes(environment entry: String, where matches: ([String]) -> Bool) -> [pid_t] {
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }
        return pids.filter { pid in
            guard !hasEnded(pid),
                  let command = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")),
                  matches(command.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }),
                  let environment = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
            else { return false }
            return environment.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == entry }
        }
    }

    /// The parent of `pid`, from `/proc/<pid>/stat`.
    static func parent(of pid: pid_t) -> pid_t? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(close, offsetBy: 2)...].split(separator: " ").dropFirst().first.flatMap { pid_t($0) }
    }

    /// Whether `pid` has ended: gone, or a zombie that nobody reaped yet (an orphan whose
    /// parent, PID 1 in a container, may never reap it).
    static func hasEnded(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(close, offsetBy: 2)...].first == "Z"
    }

    /// Kills `process` and its children (a shell pipeline's stages) with SIGKILL, and waits for it.
    static func kill(_ process: ToolProcess) {
        for child in children(of: process.process.processIdentifier) { Glibc.kill(child, SIGKILL) }
        process.stop()
    }
}

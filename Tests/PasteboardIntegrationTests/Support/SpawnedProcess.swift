import Foundation
import Glibc
import TestSupport

/// A program started with posix_spawn instead of Foundation's `Process`, for programs that close
/// descriptors they did not open, as `systemd-socket-activate` does before it execs its child.
/// Foundation notices a child's exit through a socket the child inherits: closing it makes
/// Foundation wait for that child in a blocking `waitpid`, after which it notices no other
/// child's exit and every `runTool` hangs. stdout and stderr go to a log file.
final class SpawnedProcess {
    let pid: pid_t
    let logPath: String
    private var exitStatus: Int32?

    /// Starts `path` with `arguments` and `environment`, stdin from /dev/null. It also inherits
    /// our descriptors that are not close-on-exec (glibc's closefrom action is out of Swift's sight).
    init(_ path: String, _ arguments: [String], environment: [String: String], in sandbox: Sandbox) throws {
        logPath = sandbox.path("spawned-\(UUID().uuidString.prefix(8)).log")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var argv = ([path] + arguments).map { strdup($0) }
        argv.append(nil)
        var envp = environment.map { strdup("\($0.key)=\($0.value)") }
        envp.append(nil)
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
        self.pid = pid
    }

    /// Everything the program wrote so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Sends `number` to the program.
    func signal(_ number: Int32) {
        kill(pid, number)
    }

    /// Waits (up to `timeout` seconds) for the program to exit; its exit status (128 + the
    /// signal when killed), or nil if it still runs.
    func waitForExit(timeout: TimeInterval = 30) -> Int32? {
        if let exitStatus { return exitStatus }
        _ = eventually(timeout: timeout) { reap(options: WNOHANG) }
        return exitStatus
    }

    /// Kills the program if it still runs, and reaps it (for tearDown).
    func stop() {
        guard exitStatus == nil else { return }
        kill(pid, SIGKILL)
        _ = reap(options: 0)
    }

    private func reap(options: Int32) -> Bool {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, options) } while result < 0 && errno == EINTR
        guard result == pid else { return false }
        exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return true
    }

    deinit { stop() }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
import Logging
import PasteboardSystem

/// How the daemon starts and waits for the children it keeps running (the desktop bridge, the
/// links of `link`): with its environment, stdin and stdout on /dev/null, stderr the daemon's
/// own (its log), and a lifeline's read end as descriptor 3, so that no child outlives it.
enum SupervisedChild {
    /// Starts `executable` with `arguments`; nil, logged, when it cannot be started.
    static func spawn(_ executable: String, _ arguments: [String], environment: [String: String], lifeline: BridgeLifeline,
                      logger: Logger, what: String) -> pid_t? {
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        let pid = pasteboard_spawn_child(executable, &argv, &envp, null, lifeline.childEnd)
        lifeline.childStarted()
        guard pid > 0 else {
            logger.error("cannot start \(what)", metadata: ["executable": "\(executable)", "reason": "\(SystemError.current)"])
            return nil
        }
        return pid
    }

    /// The child's wait status once it exited (waited for on a thread of its own).
    static func wait(for child: pid_t) async -> Int32 {
        await BlockingWork.run {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            return status
        }
    }

    /// The exit status of a wait status, nil when the child was killed by a signal.
    static func exitStatus(_ status: Int32) -> Int32? {
        status & 0x7f == 0 ? (status >> 8) & 0xff : nil
    }

    /// A wait status in words.
    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7f
        if signal == 0 { return "exit \((status >> 8) & 0xff)" }
        return "signal \(signal)"
    }
}

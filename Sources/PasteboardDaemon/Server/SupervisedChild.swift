#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
import Logging
import PasteboardSystem
import ServiceLifecycle

/// How the daemon starts, waits for and restarts the children it keeps running (the desktop bridge, the
/// links of `link`): with its environment, stdin and stdout on /dev/null, stderr the daemon's
/// own (its log), and a lifeline's read end as descriptor 3, so that no child outlives it.
enum SupervisedChild {
    /// Keeps `executable` running until the daemon shuts down: started with a lifeline, sent
    /// SIGTERM at graceful shutdown, and started again when it ends, after 1 s, doubling to
    /// 60 s, short again once a run lasted a minute. `started` hears each child's pid; `ended`
    /// each end, and says whether to start it again. Returns when shutting down, when `ended`
    /// says no, or when the program cannot be started at all.
    static func keepRunning(
        _ executable: String, _ arguments: [String], environment: [String: String], logger: Logger, what: String,
        metadata: Logger.Metadata = [:], started: (pid_t) -> Void = { _ in }, ended: (pid_t, Int32) -> Bool = { _, _ in true }
    ) async {
        var delay: Duration = .seconds(1)
        while !(Task.isCancelled || Task.isShuttingDownGracefully) {
            let began = ContinuousClock.now
            guard let lifeline = BridgeLifeline() else {
                logger.error("cannot start \(what)", metadata: metadata.merging(["reason": "no pipe for its lifeline: \(SystemError.current)", "in": "\(delay)"]) { $1 })
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(60))
                continue
            }
            guard let child = spawn(executable, arguments, environment: environment, lifeline: lifeline, logger: logger, what: what) else { return }
            logger.info("started \(what)", metadata: metadata.merging(["pid": "\(child)"]) { $1 })
            started(child)
            let status = await withGracefulShutdownHandler {
                await wait(for: child)
            } onGracefulShutdown: {
                kill(child, SIGTERM)
            }
            let again = ended(child, status)
            lifeline.end()
            if Task.isCancelled || Task.isShuttingDownGracefully || !again { return }
            if ContinuousClock.now - began > .seconds(60) { delay = .seconds(1) }
            logger.warning("\(what) ended; starting it again", metadata: metadata.merging([
                "pid": "\(child)", "status": "\(describe(status))", "in": "\(delay)",
            ]) { $1 })
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(60))
        }
    }

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

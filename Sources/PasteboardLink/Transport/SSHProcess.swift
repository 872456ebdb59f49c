#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
import PasteboardSystem
import Synchronization

/// The ssh process one attempt of a link runs, with pipes to its standard input and output (the
/// link's byte stream) and its standard error, whose last lines are kept for the message when
/// the link fails (a refused key, `pb: command not found` on the other machine).
///
/// ssh starts in a session of its own (it cannot ask for a password on our terminal: a link
/// needs a key, an agent or a ControlMaster, as any background ssh does) with no signal blocked.
final class SSHProcess: Sendable {
    let pid: pid_t
    /// Read: ssh's standard output.
    let input: Int32
    /// Write: ssh's standard input.
    let output: Int32
    private let errors: Int32
    private let lastErrors = ErrorLines()

    init(_ command: SSHCommand, environment: [String: String]) throws(LinkError) {
        let program = try command.program(path: environment["PATH"])
        var toSSH: [Int32] = [-1, -1], fromSSH: [Int32] = [-1, -1], errorPipe: [Int32] = [-1, -1]
        guard pasteboard_pipe(&toSSH, O_CLOEXEC) == 0 else { throw LinkError("cannot make a pipe: \(SystemError.current)") }
        guard pasteboard_pipe(&fromSSH, O_CLOEXEC) == 0 else {
            let reason = SystemError.current
            toSSH.forEach { close($0) }
            throw LinkError("cannot make a pipe: \(reason)")
        }
        guard pasteboard_pipe(&errorPipe, O_CLOEXEC) == 0 else {
            let reason = SystemError.current
            (toSSH + fromSSH).forEach { close($0) }
            throw LinkError("cannot make a pipe: \(reason)")
        }
        var argv: [UnsafeMutablePointer<CChar>?] = ([program] + command.arguments.dropFirst()).map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        let pid = pasteboard_spawn_background(program, &argv, &envp, toSSH[0], fromSSH[1], errorPipe[1])
        let reason = SystemError.current
        close(toSSH[0])
        close(fromSSH[1])
        close(errorPipe[1])
        guard pid > 0 else {
            close(toSSH[1])
            close(fromSSH[0])
            close(errorPipe[0])
            throw LinkError("cannot start \(program): \(reason)")
        }
        self.pid = pid
        self.input = fromSSH[0]
        self.output = toSSH[1]
        self.errors = errorPipe[0]
    }

    /// Reads ssh's standard error until it closes, keeping the last lines and passing each on.
    func collectErrors(_ line: @escaping @Sendable (String) -> Void) async {
        let fd = errors
        let kept = lastErrors
        await BlockingWork.run {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            var lastChance: ContinuousClock.Instant?
            while true {
                // A grandchild of ssh's (a wrapper's) may hold the pipe open after ssh ended:
                // once ssh was reaped, what comes within a second is still read, then no more.
                var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&waiting, 1, 100) == 0 {
                    if let lastChance {
                        if ContinuousClock.now > lastChance { break }
                    } else if kept.isFinishing {
                        lastChance = .now + .seconds(1)
                    }
                    continue
                }
                let count = read(fd, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                pending += buffer[..<count]
                while let newline = pending.firstIndex(of: 10) {
                    let text = String(decoding: pending[..<newline], as: UTF8.self).trimmingCharacters(in: " \r\t")
                    pending.removeSubrange(...newline)
                    guard !text.isEmpty else { continue }
                    kept.append(String(text.prefix(512)))
                    line(text)
                }
                if pending.count > 4096 { pending.removeAll() }
            }
            close(fd)
        }
    }

    /// The last lines ssh wrote to its standard error.
    var errorLines: [String] { lastErrors.lines }

    /// Gives ssh up to `grace` to end by itself, then stops it (SIGTERM); returns its wait status.
    /// Once the link's stream is closed, ssh ends with the other end's exit status (127 when the
    /// remote pb is missing), which says why the link failed; stopped at once, it reports 255 as
    /// for an unreachable host. A task cancelled (pb link interrupted) does not wait.
    func stop(grace: Duration) async -> Int32 {
        let deadline = ContinuousClock.now + grace
        while !Task.isCancelled, ContinuousClock.now < deadline {
            if let status = exitStatusIfEnded() {
                lastErrors.finish()
                return status
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return await stop()
    }

    /// ssh's wait status if it has ended (reaping it), else nil.
    private func exitStatusIfEnded() -> Int32? {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, WNOHANG) } while result < 0 && errno == EINTR
        return result == pid ? status : nil
    }

    /// Stops ssh (SIGTERM, SIGKILL after two seconds: a wrapper script may sit in a child) and
    /// waits for it; returns its wait status.
    func stop() async -> Int32 {
        let pid = pid
        // Already gone (the usual case: the link ended because ssh did): its status as it exited.
        var status: Int32 = 0
        defer { lastErrors.finish() }
        if waitpid(pid, &status, WNOHANG) == pid { return status }
        kill(pid, SIGTERM)
        return await BlockingWork.run {
            var status: Int32 = 0
            for _ in 0..<200 {
                let reaped = waitpid(pid, &status, WNOHANG)
                if reaped == pid || (reaped < 0 && errno != EINTR) { return status }
                usleep(10_000)
            }
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return status
        }
    }

    /// Waits for ssh to end; returns its wait status.
    func wait() async -> Int32 {
        let pid = pid
        return await BlockingWork.run {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return status
        }
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}

/// The last five lines ssh wrote to its standard error, and whether ssh was reaped (its
/// standard error is then read for one more second at most).
private final class ErrorLines: Sendable {
    private let kept = Mutex<[String]>([])
    private let finishing = Mutex(false)

    func finish() { finishing.withLock { $0 = true } }

    var isFinishing: Bool { finishing.withLock { $0 } }

    func append(_ line: String) {
        kept.withLock { lines in
            lines.append(line)
            if lines.count > 5 { lines.removeFirst() }
        }
    }

    var lines: [String] { kept.withLock { $0 } }
}

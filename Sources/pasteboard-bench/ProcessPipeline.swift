#if canImport(Glibc)
import Glibc
#endif
import PasteboardSystem
import Synchronization

/// Programs joined by pipes as a shell joins `a | b`, run to their end and timed whole, from
/// the first start to the last exit, with a deadline: a stage that stalls (a daemon that stops
/// answering, a peer that never reads) is killed when the deadline passes and the run fails,
/// rather than hanging the bench.
///
/// It reports no stage's peak memory: `wait4`'s `ru_maxrss` of a child the bench spawned starts
/// from the bench's own peak (see `OwnPeakMemory`, which measures a command alone).
struct ProcessPipeline {
    /// Each stage's command (an absolute path first), left to right.
    let stages: [[String]]
    /// The file the first stage reads as its stdin.
    var input = "/dev/null"
    /// The file the last stage's stdout goes to (appended to, created when missing).
    var output = "/dev/null"
    /// The file every stage's stderr goes to (appended to), for the error of a failed run.
    var log = "/dev/null"
    /// The stages' environment; this process's when nil.
    var environment: ChildEnvironment?
    /// How long the whole run may take before its stages are killed.
    var limit: Duration = .seconds(600)

    /// What a run measured.
    struct Outcome {
        /// From the first stage's start to the last stage's exit.
        let elapsed: Duration
    }

    /// Runs the stages to their end; throws when one cannot start, exits other than 0, or the
    /// deadline passes (then all are killed and reaped: nothing is left running).
    func run() throws -> Outcome {
        precondition(!stages.isEmpty, "a pipeline has at least one stage")
        let clock = ContinuousClock()
        let errors = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard errors >= 0 else { throw BenchError("cannot open \(log): \(SystemError.current)") }
        var links: [Int32] = []  // read, write, read, write… (close-on-exec: only the dup2'd copies reach a stage)
        defer {
            close(errors)
            for fd in links { close(fd) }
        }
        for _ in 1..<stages.count {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { throw BenchError("pipe: \(SystemError.current)") }
            // pipe2 is out of Swift's sight (_GNU_SOURCE); the bench spawns from one task at a
            // time, so no other child can inherit the ends before they are marked.
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            links += fds
        }
        let started = clock.now
        var pids: [pid_t] = []
        for (index, command) in stages.enumerated() {
            var descriptors: [(ours: Int32, theirs: Int32)] = []
            if index > 0 { descriptors.append((links[2 * index - 2], 0)) }
            if index < stages.count - 1 { descriptors.append((links[2 * index + 1], 1)) }
            descriptors.append((errors, 2))
            do {
                pids.append(try Spawned.start(
                    command, stdin: index == 0 ? input : "/dev/null", output: index == stages.count - 1 ? output : "/dev/null", truncating: true,
                    descriptors: descriptors, environment: environment).pid)
            } catch {
                for pid in pids { Spawned(pid: pid).stop() }
                throw error
            }
        }
        // Our copies of the pipes' ends go, so each reader sees the end when its writer exits.
        for fd in links { close(fd) }
        links = []
        let reaping = StageReaping(pids: pids)
        let watchdog = BlockingThread { reaping.killUnreaped(after: started + limit, clock: clock) }
        let statuses = pids.indices.map { reaping.reap($0) }
        let elapsed = clock.now - started
        watchdog.join()
        if reaping.killed {
            throw BenchError("`\(description)` did not finish within \(Figure.seconds(limit)) s and was killed")
        }
        for (index, status) in statuses.enumerated() where status != 0 {
            let last = Self.lastLine(of: log).map { ": \($0)" } ?? ""
            throw BenchError("`\(stages[index].joined(separator: " "))` exited with status \(status)\(last)")
        }
        return Outcome(elapsed: elapsed)
    }

    /// The pipeline as a shell line, for messages.
    var description: String {
        stages.map { $0.joined(separator: " ") }.joined(separator: " | ")
    }

    /// The last non-empty line of `path` (read from its last 4 KiB), or nil.
    private static func lastLine(of path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        fseek(file, 0, SEEK_END)
        let size = ftell(file)
        fseek(file, max(0, size - 4096), SEEK_SET)
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = fread(&bytes, 1, bytes.count, file)
        return String(decoding: bytes[..<count], as: UTF8.self).split(separator: "\n").last.map(String.init)
    }
}

/// The reaping of a pipeline's stages, shared with its watchdog: a stage is marked exited
/// (seen through `waitid(WNOWAIT)`, which leaves it a zombie) under the lock before it is
/// reaped, and the watchdog kills only unmarked stages under the same lock, so a kill can
/// never reach a pid that was reaped and reused by another process.
private final class StageReaping: Sendable {
    private let pids: [pid_t]
    /// How many stages, from the first, have exited (they are reaped in order).
    private let exited = Mutex<Int>(0)
    private let done = Atomic<Bool>(false)
    private let wasKilled = Atomic<Bool>(false)

    init(pids: [pid_t]) { self.pids = pids }

    /// Whether the watchdog killed stages that had not exited by the deadline.
    var killed: Bool { wasKilled.load(ordering: .acquiring) }

    /// Waits for stage `index` to exit and reaps it: its exit status (128 + the signal when
    /// killed). The last stage's reaping ends the watchdog.
    func reap(_ index: Int) -> Int32 {
        let pid = pids[index]
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0, errno == EINTR {}
        exited.withLock { $0 = index + 1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        if index == pids.count - 1 { done.store(true, ordering: .releasing) }
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Sleeps in 20 ms steps until every stage is reaped or `deadline` passes; at the deadline,
    /// kills the stages that have not exited (SIGKILL: a stalled stage may ignore SIGTERM).
    func killUnreaped(after deadline: ContinuousClock.Instant, clock: ContinuousClock) {
        while !done.load(ordering: .acquiring), clock.now < deadline { usleep(20_000) }
        guard !done.load(ordering: .acquiring) else { return }
        exited.withLock { exited in
            guard exited < pids.count else { return }
            wasKilled.store(true, ordering: .releasing)
            for pid in pids[exited...] { kill(pid, SIGKILL) }
        }
    }
}

import PasteboardProtocol
import PasteboardSystem
import Synchronization

/// Where the spool's blocking I/O runs: every write, copy, sync and unlink of a spool file, at
/// most `SpoolPolicy.ioThreads` at a time (a `BlockingQueue` of that width). A 4 GiB copy or a
/// long `fdatasync` beside the journal's commits (`StorageWriter`) or a paste from a file
/// (`FileSource`) holds only a thread of its own: those run on threads of their own too.
final class SpoolIO: Sendable {
    private let queue: BlockingQueue
    private let active = Atomic(false)

    /// The daemon's spool I/O, started on first use and never stopped: it lives as long as the
    /// process (the daemon's storage has no end of its own before the process's).
    static let shared: SpoolIO = {
        let io = SpoolIO()
        io.start()
        return io
    }()

    /// Runs at most `threads` jobs at once (1 or more); `start()` lets them run.
    init(threads: Int = SpoolPolicy.ioThreads) {
        queue = BlockingQueue(width: threads)
    }

    /// Accepts work from now on.
    func start() {
        active.store(true, ordering: .releasing)
    }

    /// Accepts no more work, and returns once the work already submitted has run.
    func shutdown() async {
        active.store(false, ordering: .releasing)
        await queue.waitUntilIdle()
    }

    /// Runs `body` on one of the threads and returns its result; throws `shutting-down` when
    /// no longer active (the daemon is stopping), so no I/O starts after that.
    func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async throws(ProtocolError) -> Value {
        guard active.load(ordering: .acquiring) else { throw ProtocolError(.shuttingDown, "the daemon is shutting down") }
        return await queue.run(body)
    }

    /// Runs `body` on one of the threads without waiting for it (an unlink for a spool file
    /// whose last reference died in a `deinit`, which cannot wait). Dropped when no longer
    /// active: the sweep at the next start removes what it would have.
    func submit(_ body: @escaping @Sendable () -> Void) {
        guard active.load(ordering: .acquiring) else { return }
        queue.submit(body)
    }
}

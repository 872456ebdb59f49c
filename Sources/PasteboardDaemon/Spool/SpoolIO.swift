import NIOPosix
import PasteboardProtocol

/// The threads that do the spool's blocking I/O: every write, copy, sync and unlink of a
/// spool file runs here. A 4 GiB copy or a long `fdatasync` on `NIOThreadPool.singleton`
/// would stall every commit (`StorageWriter`) and every paste from a file (`FileSource`)
/// behind it, so the spool has threads of its own.
final class SpoolIO: Sendable {
    private let pool: NIOThreadPool

    /// The daemon's pool, started on first use and never stopped: it lives as long as the
    /// process (a started pool must be shut down before it is released, and the daemon's
    /// storage has no end of its own before the process's).
    static let shared: SpoolIO = {
        let io = SpoolIO()
        io.start()
        return io
    }()

    /// Creates the pool with `threads` threads (1 or more); `start()` starts them.
    init(threads: Int = SpoolPolicy.ioThreads) {
        pool = NIOThreadPool(numberOfThreads: max(1, threads))
    }

    /// Starts the threads.
    func start() {
        pool.start()
    }

    /// Stops the threads once the work already submitted has run.
    func shutdown() async {
        try? await pool.shutdownGracefully()
    }

    /// Runs `body` on one of the threads and returns its result; throws `shutting-down` when
    /// the pool is no longer active (the daemon is stopping), so no I/O starts after that.
    func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async throws(ProtocolError) -> Value {
        do {
            return try await pool.runIfActive(body)
        } catch {
            throw ProtocolError(.shuttingDown, "the daemon is shutting down")
        }
    }

    /// Runs `body` on one of the threads without waiting for it (an unlink for a spool file
    /// whose last reference died in a `deinit`, which cannot wait). Dropped when the pool is
    /// no longer active: the sweep at the next start removes what it would have.
    func submit(_ body: @escaping @Sendable () -> Void) {
        pool.submit { state in
            if state == .active { body() }
        }
    }
}

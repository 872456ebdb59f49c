#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one way the package runs blocking work (a `poll`, a `read` of a pipe, an `fsync`, a
/// `waitpid`, an X11 or Wayland event loop) off Swift concurrency's cooperative threads: threads
/// of our own, kept in an idle cache and grown on demand.
///
/// The cooperative pool has one thread per core (two on a small machine): a job that blocks one
/// of them stalls every task scheduled there, the daemon's requests and a client's progress
/// alike. A fixed pool (NIOThreadPool's) has the same flaw one level down: a long-lived loop
/// (an X11 connection's event loop, Wayland's, the hand-off listener's `accept`) holds one of
/// its threads for ever, and a short job queued behind enough of them never runs. Here a job
/// that finds no idle thread gets a new one, so nothing waits behind a loop; a thread that has
/// been idle for `idleTimeout` ends, so a burst leaves no threads behind.
///
/// - ``run(_:)`` runs one job and returns its result to the awaiting task.
/// - ``start(_:)`` starts a job that is not awaited: a long-lived loop, or work a `deinit` or a
///   synchronous caller hands off.
/// - ``BlockingQueue`` runs jobs in order, one (a serial lane) or a few at a time.
///
/// Cancellation: a blocking call cannot be interrupted from outside, so cancelling the task
/// that awaits ``run(_:)`` does not stop the job; the task waits until the job returns (so no
/// job outlives the call that awaited it, and nothing it touches is freed under it). Work that
/// must end early watches a wake-up of its own (a pipe in its `poll`, an X11 or Wayland
/// connection's cancellation) that the caller signals from `withTaskCancellationHandler`.
public enum BlockingWork {
    /// How long a thread waits for a new job before it ends.
    public static let idleTimeout: Duration = .seconds(10)

    /// Runs `body` on a thread of the cache while the caller awaits its result (see the type's
    /// comment for cancellation).
    public static func run<Value: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            // Without a thread to be had, on the caller: the work still happens.
            _ = ThreadCache.shared.submit({ continuation.resume(returning: Result { () throws(Failure) in try body() }) }, inlineWithoutThread: true)
        }
        return try result.get()
    }

    /// Starts `body` on a thread of the cache and returns at once. The thread stays `body`'s
    /// until it returns: a loop that runs for the process's lifetime holds one thread, and no
    /// other job waits for it. False (and `body` not run) when no thread was idle and none could
    /// be created (the process's thread limit).
    @discardableResult
    public static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        ThreadCache.shared.submit(body, inlineWithoutThread: false)
    }

    /// The threads the cache holds now, running a job or idle (for tests and the soak).
    public static var threadCount: Int { ThreadCache.shared.counts.threads }

    /// The cache's idle threads now.
    public static var idleThreadCount: Int { ThreadCache.shared.counts.idle }
}

/// The threads of ``BlockingWork``: a queue of jobs under a mutex, idle threads waiting on a
/// condition variable, a new thread whenever a job finds none idle.
final class ThreadCache: @unchecked Sendable {
    /// A job, with an identity (so one that found no thread can be taken back).
    private final class Job: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    static let shared = ThreadCache(idleTimeout: BlockingWork.idleTimeout)

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let idleTimeout: Duration
    // Guarded by `mutex`.
    private var jobs: [Job] = []
    private var head = 0
    private var idle = 0
    private var threads = 0

    init(idleTimeout: Duration) {
        self.idleTimeout = idleTimeout
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    var counts: (threads: Int, idle: Int) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return (threads, idle)
    }

    /// Queues `body` for an idle thread, or starts a thread for it when none is idle. When no
    /// thread can be created, `body` is taken back unless a thread took it meanwhile, and run on
    /// the caller when `inlineWithoutThread`; false when it was not run and will not be.
    func submit(_ body: @escaping @Sendable () -> Void, inlineWithoutThread: Bool) -> Bool {
        let job = Job(body)
        pthread_mutex_lock(mutex)
        jobs.append(job)
        if idle >= jobs.count - head {
            pthread_cond_signal(condition)
            pthread_mutex_unlock(mutex)
            return true
        }
        threads += 1
        pthread_mutex_unlock(mutex)
        if spawn() { return true }
        pthread_mutex_lock(mutex)
        threads -= 1
        let waiting = jobs[head...].firstIndex { $0 === job }
        if let waiting { jobs.remove(at: waiting) }
        pthread_mutex_unlock(mutex)
        guard waiting != nil else { return true }
        if inlineWithoutThread { body() }
        return inlineWithoutThread
    }

    /// The next job, nil when none waits (`mutex` held).
    private func take() -> (@Sendable () -> Void)? {
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            head = 0
            jobs.removeAll(keepingCapacity: true)
        } else if head >= 64, head * 2 >= jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job.body
    }

    private func spawn() -> Bool {
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { argument in
            Unmanaged<ThreadCache>.fromOpaque(argument!).takeRetainedValue().work()
            return nil
        }, box)
        guard created == 0 else {
            Unmanaged<ThreadCache>.fromOpaque(box).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    /// A thread's life: jobs while there are any, then up to `idleTimeout` idle, then the end.
    private func work() {
        pthread_mutex_lock(mutex)
        while true {
            if let job = take() {
                pthread_mutex_unlock(mutex)
                job()
                pthread_mutex_lock(mutex)
                continue
            }
            idle += 1
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            let (seconds, attoseconds) = idleTimeout.components
            deadline.tv_sec += Int(seconds)
            deadline.tv_nsec += Int(attoseconds / 1_000_000_000)
            if deadline.tv_nsec >= 1_000_000_000 {
                deadline.tv_sec += 1
                deadline.tv_nsec -= 1_000_000_000
            }
            var timedOut = false
            while head == jobs.count, !timedOut {
                timedOut = pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT
            }
            idle -= 1
            if head == jobs.count {
                threads -= 1
                pthread_mutex_unlock(mutex)
                return
            }
        }
    }
}

import Synchronization

/// Blocking jobs in the order they were submitted, at most `width` at a time, on
/// ``BlockingWork``'s threads: with width 1 a serial lane (the writes into one pipe, the closing
/// of its descriptor after them); wider, a bound on how much of one kind runs at once (the
/// daemon's spool copies and syncs, which would otherwise take a disk's attention all at once).
///
/// A queue holds no thread of its own: while it has jobs, up to `width` threads of the cache
/// run them one after another; when it has none, it holds none.
public final class BlockingQueue: Sendable {
    private struct State {
        var pending: [@Sendable () -> Void] = []
        var running = 0
        var drained: [CheckedContinuation<Void, Never>] = []
    }

    /// The most jobs that run at once.
    public let width: Int
    private let state = Mutex(State())

    /// A queue running at most `width` (1 or more) jobs at once.
    public init(width: Int = 1) {
        self.width = max(1, width)
    }

    /// Queues `body` and returns at once.
    public func submit(_ body: @escaping @Sendable () -> Void) {
        let starts = state.withLock { state -> Bool in
            state.pending.append(body)
            guard state.running < width else { return false }
            state.running += 1
            return true
        }
        if starts { BlockingWork.start { self.drain() } }
    }

    /// Runs `body` after the jobs queued before it, while the caller awaits its result.
    /// Cancelling the caller does not stop the job (see ``BlockingWork``).
    public func run<Value: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: Result { () throws(Failure) in try body() }) }
        }
        return try result.get()
    }

    /// Returns once no job is queued or running (those submitted meanwhile included).
    public func waitUntilIdle() async {
        await withCheckedContinuation { continuation in
            let idle = state.withLock { state -> Bool in
                if state.running == 0, state.pending.isEmpty { return true }
                state.drained.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// One of the `width` runners: jobs in order until none is left.
    private func drain() {
        while true {
            let (job, drained) = state.withLock { state -> ((@Sendable () -> Void)?, [CheckedContinuation<Void, Never>]) in
                if !state.pending.isEmpty { return (state.pending.removeFirst(), []) }
                state.running -= 1
                guard state.running == 0 else { return (nil, []) }
                defer { state.drained = [] }
                return (nil, state.drained)
            }
            guard let job else {
                for waiter in drained { waiter.resume() }
                return
            }
            job()
        }
    }
}

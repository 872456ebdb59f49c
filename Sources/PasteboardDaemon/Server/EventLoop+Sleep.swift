import NIOCore
import Synchronization

extension EventLoop {
    /// Waits until `deadline` on this loop's own timer; returns false when the task was
    /// cancelled first.
    ///
    /// `Task.sleep` keeps its timers on the dispatch manager thread: arming one and cancelling
    /// it wakes that thread twice. A connection's watchdog arms one per connection, so a
    /// short-lived `pb paste` paid two wake-ups of a third thread for a timer that never fires;
    /// from a task on this loop (see `EventLoopTaskExecutor`) arming and cancelling this one
    /// wakes nothing.
    func sleep(until deadline: ContinuousClock.Instant) async -> Bool {
        let timer = LoopTimer()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                guard timer.wait(continuation) else { return }
                let remaining = ContinuousClock.now.duration(to: deadline)
                let (seconds, attoseconds) = remaining.components
                let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
                let delay: Int64 = nanoseconds.overflow ? .max : max(0, nanoseconds.partialValue &+ attoseconds / 1_000_000_000)
                timer.arm(scheduleTask(in: .nanoseconds(delay)) { timer.finish(true) })
            }
        } onCancel: {
            timer.finish(false)
        }
    }
}

/// The state `EventLoop.sleep(until:)` shares between its waiter, its timer and its
/// cancellation, whichever comes first.
private final class LoopTimer: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Bool, Never>?
        var scheduled: Scheduled<Void>?
        var finished = false
    }

    private let state = Mutex(State())

    /// Keeps `continuation`; false (having resumed it) when the wait was already cancelled.
    func wait(_ continuation: CheckedContinuation<Bool, Never>) -> Bool {
        let finished = state.withLock { state -> Bool in
            if !state.finished { state.continuation = continuation }
            return state.finished
        }
        if finished { continuation.resume(returning: false) }
        return !finished
    }

    /// Keeps the timer to cancel; cancels it at once when the wait is over already.
    func arm(_ scheduled: Scheduled<Void>) {
        let finished = state.withLock { state -> Bool in
            if !state.finished { state.scheduled = scheduled }
            return state.finished
        }
        if finished { scheduled.cancel() }
    }

    /// Ends the wait (`fired`: the deadline passed; else cancelled), once.
    func finish(_ fired: Bool) {
        let (continuation, scheduled) = state.withLock { state -> (CheckedContinuation<Bool, Never>?, Scheduled<Void>?) in
            guard !state.finished else { return (nil, nil) }
            state.finished = true
            defer { state.continuation = nil; state.scheduled = nil }
            return (state.continuation, state.scheduled)
        }
        if !fired { scheduled?.cancel() }
        continuation?.resume(returning: fired)
    }
}

import Synchronization

/// Runs a load off the caller's executor and hands its progress reports to the caller's closure
/// on the caller's own executor.
///
/// A `@MainActor` view model calls a load and updates its state from the progress closure: the
/// closure must run where the caller is (it need not be `@Sendable`, and may touch the caller's
/// state), while the load's chunk loop must not (it would take the main thread for every
/// chunk). The load runs as a child task on the global executor and sends its reports through
/// a stream the caller's side reads; when the caller is slow, older reports give way to newer
/// ones (the last, at 100%, is never dropped). Cancelling the caller cancels the load.
enum ProgressRelay {
    /// Runs `work` off the caller and calls `progress` with its reports on the caller's
    /// executor; with `keepingEvery`, no report gives way to a newer one (events, not progress).
    nonisolated(nonsending) static func run<Value: Sendable, Report: Sendable>(
        reporting progress: (Report) -> Void, keepingEvery: Bool = false,
        _ work: @escaping @Sendable (_ report: @escaping @Sendable (Report) -> Void) async throws -> Value
    ) async throws -> Value {
        let (reports, continuation) = AsyncStream.makeStream(of: Report.self, bufferingPolicy: keepingEvery ? .unbounded : .bufferingNewest(64))
        // The value comes back through a box the caller empties, not as the child task's result:
        // the runtime may release a finished task later than the caller returns, and a value
        // whose lifetime matters (a `LoadedFile` deletes its file when released) must go when
        // the caller lets go of it.
        let outcome = Outcome<Value>()
        // The load is a task of its own, and the reports are read here, in this function's own
        // body, which runs on the caller's executor (nonisolated(nonsending)). Not in a task
        // group's body nor a cancellation handler's operation: their `#isolation` is none here,
        // so they ran on a pool thread and called `progress` while the main actor ran other work.
        let load = Task.detached {
            defer { continuation.finish() }
            let value = try await work { continuation.yield($0) }
            outcome.value.withLock { $0 = value }
        }
        // A cancelled caller ends the reports' iteration; the load is cancelled with it.
        for await report in reports { progress(report) }
        if Task.isCancelled { load.cancel() }
        try await load.value
        guard let value = outcome.value.withLock({ $0.take() }) else { throw CancellationError() }
        return value
    }

    private final class Outcome<Value: Sendable>: Sendable {
        let value = Mutex<Value?>(nil)
    }
}

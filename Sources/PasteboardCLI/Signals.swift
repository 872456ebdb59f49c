#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// Turns SIGINT and SIGTERM into events pb can act on (cancel a paste, hand over lazy data)
/// instead of dying mid-write.
public enum Signals {
    /// Runs `body`; when SIGINT or SIGTERM arrives first, cancels it (its error, usually
    /// `CancellationError`, is rethrown once it has cleaned up).
    public static func cancellingOnInterrupt<Result: Sendable>(_ body: sending @escaping () async throws -> Result) async throws -> Result {
        let task = Task(operation: body)
        let watcher = Task {
            if await next() != nil { task.cancel() }
        }
        defer { watcher.cancel() }
        let result = await withTaskCancellationHandler { await task.result } onCancel: { task.cancel() }
        return try result.get()
    }

    /// Waits for SIGINT or SIGTERM and returns it; nil when the waiting task is cancelled.
    public static func next() async -> Int32? {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber)
            source.setEventHandler { continuation.yield(signalNumber) }
            source.resume()
            sources.append(source)
        }
        defer {
            for source in sources { source.cancel() }
        }
        for await signalNumber in stream { return signalNumber }
        return nil
    }
}

import Dispatch
import Synchronization

/// Hands the chunks a blocking X11 read produces on its own thread to the async task that
/// consumes them (`X11SelectionFetch`), holding at most `capacity` chunks: when the destination reads
/// slowly, the producer blocks (and so stops deleting INCR properties, which pauses the X
/// owner), so memory stays bounded by `capacity` × the reader's `readSize` whatever the size.
///
/// One producer thread, one consumer task. Cancelling (the destination stopped loading) wakes
/// both: the producer's next `send` throws and its X11 wait ends through `x11Cancellation`.
final class ChunkChannel: Sendable {
    private struct State {
        var chunks: [[UInt8]] = []
        var end: Result<Void, X11Error>?
        var consumer: CheckedContinuation<[UInt8]?, any Error>?
        var cancelled = false
        var x11Cancellation: X11Cancellation?
    }

    private let state = Mutex(State())
    /// Free places for chunks; the producer takes one per chunk, the consumer gives it back.
    ///
    /// Made with the value 0 and given its places by `signal`: libdispatch traps (SIGILL) when a
    /// semaphore is freed holding less than the value it was *made* with, which is what a
    /// transfer abandoned partway leaves (chunks taken, never given back). Made with 0, no
    /// balance it can be left with is below that.
    private let slots: DispatchSemaphore

    init(capacity: Int) {
        slots = DispatchSemaphore(value: 0)
        for _ in 0..<max(capacity, 1) { slots.signal() }
    }

    /// Lets `cancel` end the producer's X11 waits too.
    func attach(_ cancellation: X11Cancellation) {
        let cancelled = state.withLock { state in
            state.x11Cancellation = cancellation
            return state.cancelled
        }
        if cancelled { cancellation.cancel() }
    }

    /// The producer: passes `chunk` on, blocking while `capacity` chunks wait.
    func send(_ chunk: [UInt8]) throws(X11Error) {
        slots.wait()
        let waiting: CheckedContinuation<[UInt8]?, any Error>? = try state.withLock { (state) throws(X11Error) in
            if state.cancelled { throw .cancelled }
            if let consumer = state.consumer {
                state.consumer = nil
                return consumer
            }
            state.chunks.append(chunk)
            return nil
        }
        if let waiting {
            slots.signal()
            waiting.resume(returning: chunk)
        }
    }

    /// The producer: no more chunks (`error` nil) or the read failed.
    func finish(_ error: X11Error?) {
        let waiting = state.withLock { state -> CheckedContinuation<[UInt8]?, any Error>? in
            state.end = error.map { .failure($0) } ?? .success(())
            defer { state.consumer = nil }
            return state.chunks.isEmpty ? state.consumer : nil
        }
        guard let waiting else { return }
        if let error { waiting.resume(throwing: error) } else { waiting.resume(returning: nil) }
    }

    /// The consumer: the next chunk, nil at the end; throws the producer's error.
    func next() async throws(X11Error) -> [UInt8]? {
        do {
            return try await nextUntyped()
        } catch let error as X11Error {
            throw error
        } catch {
            throw .cancelled
        }
    }

    private func nextUntyped() async throws -> [UInt8]? {
        try await withCheckedThrowingContinuation { continuation in
            enum Outcome { case chunk([UInt8]), end, failed(any Error), wait }
            let outcome = state.withLock { state -> Outcome in
                if state.cancelled { return .failed(X11Error.cancelled) }
                if !state.chunks.isEmpty { return .chunk(state.chunks.removeFirst()) }
                switch state.end {
                case .success?: return .end
                case .failure(let error)?: return .failed(error)
                case nil:
                    state.consumer = continuation
                    return .wait
                }
            }
            switch outcome {
            case .chunk(let chunk):
                slots.signal()
                continuation.resume(returning: chunk)
            case .end: continuation.resume(returning: nil)
            case .failed(let error): continuation.resume(throwing: error)
            case .wait: break
            }
        }
    }

    /// The consumer stopped: wakes a waiting consumer and the producer, and ends the X11 wait.
    func cancel() {
        let (waiting, x11) = state.withLock { state in
            state.cancelled = true
            defer { state.consumer = nil }
            return (state.consumer, state.x11Cancellation)
        }
        x11?.cancel()
        slots.signal()
        waiting?.resume(throwing: X11Error.cancelled)
    }
}

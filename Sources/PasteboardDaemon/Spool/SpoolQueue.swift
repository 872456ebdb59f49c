import NIOCore
import Synchronization

/// The buffers a `SpoolSink` has taken and not yet written, handed to its draining task in
/// batches: all that arrived while the previous batch was being written.
final class SpoolQueue: Sendable {
    private struct State {
        var buffers: [ByteBuffer] = []
        var finished = false
        var waiter: CheckedContinuation<[ByteBuffer]?, Never>?
    }

    private let state = Mutex(State())

    /// Queues `buffer` (ignored once finished).
    func append(_ buffer: ByteBuffer) {
        let waiter = state.withLock { state -> CheckedContinuation<[ByteBuffer]?, Never>? in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.buffers.append(buffer)
            return nil
        }
        waiter?.resume(returning: [buffer])
    }

    /// No more buffers come: the draining task gets what is queued, then nil.
    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<[ByteBuffer]?, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Every buffer queued so far, waiting for one if none is; nil once finished and empty.
    /// One consumer only.
    func next() async -> [ByteBuffer]? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> [ByteBuffer]?? in
                if !state.buffers.isEmpty {
                    defer { state.buffers = [] }
                    return .some(state.buffers)
                }
                if state.finished { return .some(nil) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

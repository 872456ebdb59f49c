internal import PasteboardProtocol
import Synchronization

/// The frames the daemon sends for one request, in order, for the task that made it.
///
/// What `AsyncThrowingStream<Frame, any Error>` would be, written for this one element type:
/// the standard stream is generic code outside this module, and every stream made and every
/// frame through it looked its type metadata up at run time, a fifth of a client's
/// instructions per request. Unbounded, like the stream (the daemon sends a request's data only
/// as credit allows). Like the stream, a reader whose task is cancelled while it waits gets nil,
/// and so does every later read.
final class RequestFrames: AsyncSequence, Sendable {
    typealias Element = Frame
    typealias Failure = any Error

    private struct State {
        var buffered: [Frame] = []
        /// The next frame to read in `buffered` (reads advance it; writes append).
        var head = 0
        /// The reader, waiting for a frame.
        var reader: CheckedContinuation<Frame?, any Error>?
        /// How the frames ended: nil (finished) or an error, read once the buffer is drained.
        var end: Result<Frame?, any Error>?

        mutating func take() -> Frame? {
            guard head < buffered.count else { return nil }
            let frame = buffered[head]
            head += 1
            if head == buffered.count {
                buffered.removeAll(keepingCapacity: true)
                head = 0
            }
            return frame
        }
    }

    private let state = Mutex(State())

    /// Adds a frame; it is dropped once the frames have ended.
    func yield(_ frame: Frame) {
        let reader = state.withLock { state -> CheckedContinuation<Frame?, any Error>? in
            guard state.end == nil else { return nil }
            if let reader = state.reader {
                state.reader = nil
                return reader
            }
            state.buffered.append(frame)
            return nil
        }
        reader?.resume(returning: frame)
    }

    /// Ends the frames: the reader gets the buffered ones, then nil, or `error` when given.
    func finish(throwing error: (any Error)? = nil) {
        let end: Result<Frame?, any Error> = error.map { .failure($0) } ?? .success(nil)
        let reader = state.withLock { state -> CheckedContinuation<Frame?, any Error>? in
            guard state.end == nil else { return nil }
            state.end = end
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume(with: end)
    }

    /// The next frame; nil once the frames finished (or the reading task was cancelled).
    func next() async throws -> Frame? {
        enum Immediate { case frame(Frame), end(Result<Frame?, any Error>), wait }
        let immediate = state.withLock { state -> Immediate in
            if let frame = state.take() { return .frame(frame) }
            if let end = state.end { return .end(end) }
            return .wait
        }
        switch immediate {
        case .frame(let frame): return frame
        case .end(let end): return try end.get()
        case .wait: break
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let now = state.withLock { state -> Result<Frame?, any Error>? in
                    if let frame = state.take() { return .success(frame) }
                    if let end = state.end { return end }
                    precondition(state.reader == nil, "a request's frames have one reader at a time")
                    state.reader = continuation
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            finish()
        }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let frames: RequestFrames

        mutating func next() async throws -> Frame? {
            try await frames.next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(frames: self)
    }
}

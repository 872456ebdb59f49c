import NIOCore
import PasteboardProtocol
import Synchronization

/// The bytes of one `produce` request on their way from the source to whoever consumes them
/// (a destination's load, or the daemon capturing data from a source that leaves).
///
/// The source's inbound loop delivers frames without waiting; the single consumer takes them
/// in order with `next()` and reports what it consumed, which becomes credit for the source.
/// At most one window of bytes is ever buffered here.
final class Relay: Sendable {
    /// What the source sent, in order.
    enum Event: Sendable {
        /// The total size the source declared.
        case size(Int)
        /// A chunk of bytes.
        case data(ByteBuffer)
        /// The last chunk has arrived.
        case end
    }

    private struct State {
        var events: [Event] = []
        var failure: ProtocolError?
        var waiter: CheckedContinuation<Event, any Error>?
        var window: ReceiveWindow
        var sawData = false
        var ended = false
    }

    /// The daemon request id of the `produce`.
    let id: UInt32
    private let state: Mutex<State>

    init(id: UInt32, window: Int) {
        self.id = id
        self.state = Mutex(State(window: ReceiveWindow(window: window)))
    }

    /// A data frame from the source; throws when the source broke flow control or sent after END.
    func deliver(_ payload: ByteBuffer, end: Bool) throws(ProtocolError) {
        let wakeup = try state.withLock { state throws(ProtocolError) -> Wakeup? in
            guard !state.ended, state.failure == nil else { return nil }  // late frames of an ended produce are dropped
            try state.window.receive(payload.readableBytes)
            if payload.readableBytes > 0 {
                state.sawData = true
                state.events.append(.data(payload))
            }
            if end {
                state.ended = true
                state.events.append(.end)
            }
            return Self.takeWaiter(&state)
        }
        wakeup?.resume()
    }

    /// The source's `size` message.
    func declareSize(_ bytes: Int) throws(ProtocolError) {
        let wakeup = try state.withLock { state throws(ProtocolError) -> Wakeup? in
            guard !state.ended, state.failure == nil else { return nil }
            if bytes < 0 { throw ProtocolError(.invalidArgument, "a source declared a negative size") }
            if state.sawData { throw ProtocolError(.unexpectedMessage, "'size' must come before the first data frame of a produce") }
            state.events.append(.size(bytes))
            return Self.takeWaiter(&state)
        }
        wakeup?.resume()
    }

    /// Ends the relay with `error`; the consumer's current or next `next()` throws it.
    func fail(_ error: ProtocolError) {
        let waiter = state.withLock { state -> CheckedContinuation<Event, any Error>? in
            if state.failure == nil { state.failure = error }
            state.events = []
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(throwing: error)
    }

    /// The next event; throws the relay's failure (or `cancelled` when the consuming task is cancelled).
    func next() async throws -> Event {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Event, any Error>) in
                let ready: Result<Event, any Error>? = state.withLock { state in
                    if let failure = state.failure { return .failure(failure) }
                    if !state.events.isEmpty { return .success(state.events.removeFirst()) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            self.fail(ProtocolError(.cancelled, "the load was cancelled"))
        }
    }

    /// Records `bytes` passed on by the consumer; returns credit to grant the source now, if any.
    func consumed(_ bytes: Int) -> Int? {
        state.withLock { $0.window.consume(bytes) }
    }

    /// A waiting consumer and the first queued event for it (the caller resumes it outside the lock).
    private static func takeWaiter(_ state: inout State) -> Wakeup? {
        guard let waiter = state.waiter, !state.events.isEmpty else { return nil }
        state.waiter = nil
        return Wakeup(waiter: waiter, event: state.events.removeFirst())
    }

    private struct Wakeup {
        let waiter: CheckedContinuation<Event, any Error>
        let event: Event
        func resume() { waiter.resume(returning: event) }
    }
}

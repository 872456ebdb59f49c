import Synchronization

/// The sending side of one data stream's flow control: bytes may be sent only against credit.
///
/// Starts with the initial window; `grant` adds credit as `credit` messages arrive; `acquire`
/// suspends the single sender until some credit is available. Thread-safe.
public final class SendWindow: Sendable {
    private struct State {
        var credit: Int
        var failure: (any Error)?
        var waiter: CheckedContinuation<Void, any Error>?
    }

    private let state: Mutex<State>

    /// Creates a window holding `initialCredit` bytes of credit.
    public init(initialCredit: Int) {
        state = Mutex(State(credit: initialCredit))
    }

    /// Whether the sender is suspended in `acquire` now, waiting for credit (a test acts once it is).
    package var senderIsWaiting: Bool { state.withLock { $0.waiter != nil } }

    /// Adds credit granted by the receiver and wakes the sender.
    public func grant(_ bytes: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            // Saturating: a hostile peer's huge grants must not overflow.
            state.credit = state.credit.addingSaturating(max(0, bytes))
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Ends the stream: the current and every later `acquire` throws `error`.
    public func fail(_ error: any Error) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            if state.failure == nil { state.failure = error }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(throwing: error)
    }

    /// Takes exactly `bytes` of credit if that much is available now; false (taking nothing)
    /// when it is not. Throws the stream's failure, like `acquire`.
    public func take(_ bytes: Int) throws -> Bool {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            guard state.credit >= bytes else { return false }
            state.credit -= bytes
            return true
        }
    }

    /// Waits for credit and takes up to `wanted` bytes of it; returns how many were taken (≥ 1).
    public func acquire(upTo wanted: Int) async throws -> Int {
        precondition(wanted > 0)
        while true {
            let taken: Int? = try state.withLock { state in
                if let failure = state.failure { throw failure }
                guard state.credit > 0 else { return nil }
                let taken = min(wanted, state.credit)
                state.credit -= taken
                return taken
            }
            if let taken { return taken }
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let resumeNow: Result<Void, any Error>? = state.withLock { state in
                        if let failure = state.failure { return .failure(failure) }
                        if state.credit > 0 { return .success(()) }
                        state.waiter = continuation
                        return nil
                    }
                    if let resumeNow { continuation.resume(with: resumeNow) }
                }
            } onCancel: {
                self.fail(CancellationError())
            }
        }
    }
}

/// The receiving side of one data stream's flow control: checks the sender stays within the
/// window and says when to grant more credit.
public struct ReceiveWindow: Sendable {
    /// The window size granted at the start and topped up to.
    public let window: Int
    private var outstanding: Int
    private var consumedSinceGrant = 0

    /// Creates the receiving side of a stream whose sender starts with `window` bytes of credit.
    public init(window: Int) {
        self.window = window
        self.outstanding = window
    }

    /// Records `bytes` arriving; throws `flow-control` when the sender exceeded its credit.
    public mutating func receive(_ bytes: Int) throws(ProtocolError) {
        guard bytes <= outstanding else {
            throw ProtocolError(.flowControl, "peer sent \(bytes) bytes with only \(outstanding) bytes of credit")
        }
        outstanding -= bytes
    }

    /// Records `bytes` consumed (written out, stored); returns credit to grant now, if any.
    /// Credit is granted in batches of at least half the window, so `credit` messages stay rare.
    public mutating func consume(_ bytes: Int) -> Int? {
        consumedSinceGrant += bytes
        guard consumedSinceGrant >= window / 2 else { return nil }
        defer { consumedSinceGrant = 0 }
        outstanding += consumedSinceGrant
        return consumedSinceGrant
    }
}

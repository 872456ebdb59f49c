import Synchronization

/// A value set once by one side (a thread) and awaited by the other (a task). Unlike an
/// `AsyncStream`, awaiting it is not ended by the waiting task's cancellation: a session waits
/// for its thread (`BlockingWork.start`) to end after cancelling it, so no thread outlives the
/// call that started it.
public final class OneShot<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [CheckedContinuation<Value, Never>] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Sets the value (only the first call counts) and wakes the waiters.
    public func resolve(_ value: Value) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// The value, once set.
    public func value() async -> Value {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Value? in
                if let value = state.value { return value }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

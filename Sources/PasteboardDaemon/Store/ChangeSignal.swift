import Synchronization

/// Tells each listener that something changed, keeping only the latest news per listener, for
/// watches whose answer is read fresh when they are told: the type registry's generation
/// (`watch-types`), the drag sessions in flight (`sessions` with `watch`).
///
/// Why the latest only: a listener that is slow to send (a client reading slowly) would
/// otherwise queue a notice per change; what it sends is the state as it is when it gets to it,
/// so one notice stands for any number of changes.
final class ChangeSignal<Value: Sendable>: Sendable {
    private struct Listeners {
        var next = 0
        var continuations: [Int: AsyncStream<Value>.Continuation] = [:]
        var finished = false
    }

    private let listeners = Mutex(Listeners())

    /// A stream of what `send` says from now on (the latest unread only), and how to stop it.
    func listen() -> (changes: AsyncStream<Value>, stop: @Sendable () -> Void) {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let id: Int? = listeners.withLock { listeners in
            guard !listeners.finished else { return nil }
            defer { listeners.next += 1 }
            listeners.continuations[listeners.next] = continuation
            return listeners.next
        }
        guard let id else {
            continuation.finish()
            return (stream, {})
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.listeners.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return (stream, { continuation.finish() })
    }

    /// Tells every listener `value`.
    func send(_ value: Value) {
        let continuations = listeners.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(value) }
    }

    /// Ends every stream, now and for later listeners (the daemon shuts down).
    func finishAll() {
        let continuations = listeners.withLock { listeners -> [AsyncStream<Value>.Continuation] in
            listeners.finished = true
            defer { listeners.continuations = [:] }
            return Array(listeners.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}

import Synchronization

/// A one-way signal: once opened it stays open, and every waiter (present or future) goes on.
/// A live source waits on one for its stop; a connection's promises, for their release; the
/// daemon, for a client's hand-off socket.
public final class Latch: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    /// A closed latch.
    public init() {}

    /// True once `open` was called.
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Opens the latch, waking every waiter.
    public func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the latch is open, `limit` has passed (when given), or the task is cancelled.
    public func wait(upTo limit: Duration?) async {
        guard let limit else { return await waitUntilOpen() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitUntilOpen() }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitUntilOpen() async {
        let number = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.isOpen || Task.isCancelled { return true }
                    state.waiters[number] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: number) }?.resume()
        }
    }
}

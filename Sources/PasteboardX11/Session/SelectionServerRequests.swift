import Synchronization

/// What an `X11SelectionServer`'s async side asks its X thread to do, newest first: only the
/// latest request matters (a copy that arrives while the last is being offered replaces it),
/// and a request stops the selection owner that runs, so the thread turns to it at once.
final class SelectionServerRequests: Sendable {
    private struct State {
        var pending: X11SelectionServer.Request?
        var running: SelectionOwner.Control?
    }

    private let state = Mutex(State())
    /// Wakes the X thread while it waits idle.
    let wakeup: X11Wakeup

    init() throws(X11Error) {
        wakeup = try X11Wakeup()
    }

    /// Replaces any waiting request with `request` and stops the running owner.
    func post(_ request: X11SelectionServer.Request) {
        let running = state.withLock { state in
            state.pending = request
            return state.running
        }
        running?.stop()
        wakeup.signal()
    }

    /// The X thread: the waiting request, if any.
    func take() -> X11SelectionServer.Request? {
        state.withLock { state in
            defer { state.pending = nil }
            return state.pending
        }
    }

    /// The X thread: `control`'s owner is about to take the selection; false (and nothing
    /// registered) when a newer request already waits, so it should not.
    func begin(_ control: SelectionOwner.Control) -> Bool {
        state.withLock { state in
            guard state.pending == nil else { return false }
            state.running = control
            return true
        }
    }

    /// The X thread: the owner registered by `begin` stopped running.
    func end() {
        state.withLock { $0.running = nil }
    }
}

import Synchronization

/// Where a watch got to across reconnections: the change count it last reported, so that the
/// daemon's description of the current content, which opens every watch, is skipped after a
/// reconnect when nothing changed while the daemon was away (a restarted daemon restores each
/// pasteboard with its change count), and reported when something did.
final class WatchPosition: Sendable {
    private let state = Mutex<(last: Int?, resuming: Bool)>((nil, false))

    /// A new connection's watch begins: its first change describes the current content.
    func resume() {
        state.withLock { $0.resuming = true }
    }

    /// Whether a change with `changeCount` is news (and records it): every change is, but the
    /// first after a reconnect when it has the change count last reported.
    func isNew(_ changeCount: Int) -> Bool {
        state.withLock { state in
            defer { state = (changeCount, false) }
            return !(state.resuming && state.last == changeCount)
        }
    }
}

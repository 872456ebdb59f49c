import PasteboardSystem
import Synchronization

/// Holds reads of the bridged pasteboards back while a desktop bridge that just started brings
/// in what the desktop holds, so the first `pb paste` after an auto-start (or a bridge restart)
/// is the desktop's current content, not the pasteboard's content of before or nothing.
///
/// The supervisor opens the gate's wait when it starts a bridge (`expect`); a read of `general`
/// or `primary` by any client but the bridge then waits until the bridge's status names that
/// pasteboard's selection `settled` (`BridgeStatus.Selection.settled`), a selection it does not
/// bridge, or `bound` passed, whichever comes first; after that, reads never wait again until
/// the next start. The status file is polled every `interval` during that window only.
package final class BridgeStartupGate: Sendable {
    private struct Expected {
        /// The bridge's pid; nil while it is about to be started.
        let pid: Int32?
        let file: BridgeStatusFile
        let deadline: ContinuousClock.Instant
    }

    private let expected = Mutex<Expected?>(nil)
    /// The longest a read waits for a bridge that started.
    package static let bound: Duration = .seconds(2)
    static let interval: Duration = .milliseconds(20)

    package init() {}

    /// A bridge with `pid` (nil: one is about to be started, before the daemon listens),
    /// writing its status beside `socketPath`, was started now. The bound counts from the
    /// first call of a start.
    package func expect(pid: Int32?, socketPath: String) {
        expected.withLock { expected in
            let deadline = expected.flatMap { $0.pid == nil ? $0.deadline : nil } ?? .now + Self.bound
            expected = Expected(pid: pid, file: BridgeStatusFile(socketPath: socketPath), deadline: deadline)
        }
    }

    /// The bridge ended: nothing more to wait for.
    package func bridgeEnded() {
        expected.withLock { $0 = nil }
    }

    /// Waits, when a bridge started moments ago and has not brought in the desktop's content
    /// of `pasteboard` yet, until it has or the bound passed. Reads by the bridge itself
    /// (`clientName`) never wait: it reads the pasteboards to do its work. `sleep` waits until
    /// an instant (the connection's own loop timer, `EventLoop.sleep(until:)`, which the
    /// request's task runs on; false when cancelled).
    nonisolated(nonsending) package func waitBeforeReading(
        _ pasteboard: String, clientName: String, sleep: (ContinuousClock.Instant) async -> Bool
    ) async {
        guard pasteboard == PasteboardName.general || pasteboard == PasteboardName.primary,
              clientName != Self.bridgeClientName else { return }
        while let expected = expected.withLock({ $0 }) {
            guard ContinuousClock.now < expected.deadline, !isSettled(pasteboard, bridge: expected.pid, file: expected.file) else {
                self.expected.withLock { if $0?.pid == expected.pid, ContinuousClock.now >= expected.deadline { $0 = nil } }
                return
            }
            guard await sleep(min(ContinuousClock.now + Self.interval, expected.deadline)) else { return }
        }
    }

    /// The client name the bridge connects with (`DesktopBridge.clientName`).
    package static let bridgeClientName = "pasteboard-bridge"

    /// Whether the bridge `pid`'s status says `pasteboard` settled (or not bridged at all).
    private func isSettled(_ pasteboard: String, bridge pid: Int32?, file: BridgeStatusFile) -> Bool {
        guard let pid, let status = try? file.read(), status.pid == pid else { return false }
        switch status.state {
        case .off: return true
        // Starting, or trying again to reach this daemon (it may start before the daemon listens):
        // the bound ends the wait when it never gets there (no display after all).
        case .waiting: return false
        case .bridging: break
        }
        // No entry yet: its lanes are being set up (a bridge that does not bridge a selection
        // says so with an entry settled from the start).
        return status.selections.first(where: { $0.pasteboard == pasteboard })?.settled == true
    }
}

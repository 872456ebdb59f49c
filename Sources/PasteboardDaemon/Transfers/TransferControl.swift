import PasteboardProtocol
import Synchronization

/// How a load in flight is stopped from outside its task (a client's `cancel`, or the
/// connection closing): the destination's send window and the relay from the source, if any,
/// both fail, so the task wakes wherever it waits and ends on its own.
final class TransferControl: Sendable {
    private struct State {
        var stopped: ProtocolError?
        var relay: Relay?
    }

    private let state = Mutex(State())
    /// The destination's flow-control window.
    let window: SendWindow

    init(window: SendWindow) {
        self.window = window
    }

    /// Stops the load with `error`.
    func stop(_ error: ProtocolError) {
        let relay = state.withLock { state -> Relay? in
            if state.stopped == nil { state.stopped = error }
            return state.relay
        }
        window.fail(error)
        relay?.fail(error)
    }

    /// Records the relay the load reads from; fails it at once if the load was already stopped.
    func attach(_ relay: Relay) {
        let stopped = state.withLock { state -> ProtocolError? in
            state.relay = relay
            return state.stopped
        }
        if let stopped { relay.fail(stopped) }
    }
}

import Pasteboard
import Synchronization

/// The bridge's drop of one drag session into a desktop target, made once: the daemon `drop`
/// is sent when the handle sends XdndDrop (so the source hears "dropped" at once) and every
/// conversion of XdndSelection loads from that one `PerformedDrop`. A conversion before the
/// drop (a target peeking at the data while the pointer moves over it) is refused: the daemon
/// gives a session's data only to the destination that dropped it, and nothing is dropped yet.
final class DesktopDropState: Sendable {
    private struct State {
        var operation: DragOperation?
        var drop: Task<PerformedDrop, any Error>?
        var served = false
    }

    private let session: DropSession
    private let state = Mutex(State())

    init(session: DropSession) { self.session = session }

    /// The handle is sending XdndDrop for `operation`: the daemon drop starts now. Called on the
    /// handle's X thread, before the target can ask for the data.
    func dropping(_ operation: DragOperation) {
        state.withLock { state in
            guard state.drop == nil else { return }
            state.operation = operation
            let session = session
            let proposal: DropProposal = operation == .move ? .move : .copy
            state.drop = Task {
                guard let performed = try await session.perform(proposal) else {
                    throw DesktopDragError.notDropped(session: session.id)
                }
                return performed
            }
        }
    }

    /// The target asked for the data after the drop (it read something).
    func noteServed() { state.withLock { $0.served = true } }

    /// Whether the target read anything of the drop. XDND messages are ClientMessages any
    /// client can send: a move is believed only from a target that took the data.
    var wasServed: Bool { state.withLock { $0.served } }

    /// Whether XdndDrop was sent.
    var isDropping: Bool { state.withLock { $0.drop != nil } }

    /// The drop, once the handle sent XdndDrop; throws before, or when the daemon refused it.
    func performed() async throws -> PerformedDrop {
        guard let drop = state.withLock({ $0.drop }) else { throw DesktopDragError.conversionBeforeDrop }
        return try await drop.value
    }
}

/// Why the bridge could not serve a desktop drag.
enum DesktopDragError: Error, CustomStringConvertible {
    /// A target converted XdndSelection before anything was dropped.
    case conversionBeforeDrop
    /// The daemon did not let the bridge drop the session (another destination did first).
    case notDropped(session: Int)

    var description: String {
        switch self {
        case .conversionBeforeDrop: "a target asked for the data before the drop; it is given only once dropped"
        case let .notDropped(session): "drag session \(session) could not be dropped"
        }
    }
}

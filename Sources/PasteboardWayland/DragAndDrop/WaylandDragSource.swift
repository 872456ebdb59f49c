/// The state machine of a drag we start from a Wayland surface (a drag handle): what the
/// compositor's events on our `wl_data_source` mean for the drag session. Pure: the bridge
/// feeds it the events and acts on what it answers.
///
/// The version-3 rules (wayland.xml, wl_data_source): `target` says whether the surface under
/// the pointer accepts a type; `action` is the action the compositor chose from ours and the
/// destination's; `dnd_drop_performed` is the user releasing over an accepting destination — a
/// drop, not yet acceptance; only `dnd_finished` says the destination took the data, and only
/// then may a move delete the original. `cancelled` ends it any other way.
public struct WaylandDragSource: Sendable {
    /// Where the drag is.
    public enum Phase: Sendable, Equatable {
        /// The pointer is carrying the drag.
        case dragging
        /// Released over a destination: waiting for it to finish.
        case dropped
        /// Ended with this outcome.
        case ended(WaylandDragOutcome)
    }

    /// The actions this drag offers (what `set_actions` sent).
    public let offered: DragActions
    public private(set) var phase: Phase = .dragging
    /// The type the destination under the pointer accepts (nil: none accepts).
    public private(set) var acceptedType: String?
    /// The action the compositor chose last.
    public private(set) var action: DragActions = []

    /// A drag offering `actions` (copy, move or both; `ask` is dropped).
    public init(offering actions: DragActions) {
        offered = actions.intersection([.copy, .move])
    }

    /// The outcome, once the drag ended.
    public var outcome: WaylandDragOutcome? {
        if case let .ended(outcome) = phase { outcome } else { nil }
    }

    /// `wl_data_source.target`: the destination under the pointer accepts `type`, or nothing.
    public mutating func target(_ type: String?) {
        guard case .dragging = phase else { return }
        acceptedType = type
    }

    /// `wl_data_source.action`: the compositor's choice; one outside what we offered is ignored.
    public mutating func chose(_ value: UInt32) {
        let chosen = DragActions(wire: value)
        guard chosen.isEmpty || offered.contains(chosen) else { return }
        action = chosen
    }

    /// `wl_data_source.dnd_drop_performed`.
    public mutating func dropPerformed() {
        guard case .dragging = phase else { return }
        phase = .dropped
    }

    /// `wl_data_source.dnd_finished`: the destination is done; a move only when the last
    /// action was move.
    public mutating func finished() {
        guard case .dropped = phase else { return }
        phase = .ended(.finished(action.single ?? .copy))
    }

    /// `wl_data_source.cancelled`: before the drop, cancelled (Wayland tells a source no more
    /// than `target(null)`, the same over a surface that refuses and over one that takes no
    /// drops, so a refusal is not told apart here); after it, a destination that never finished
    /// (failed).
    public mutating func cancelled() {
        switch phase {
        case .dragging: phase = .ended(.cancelled)
        case .dropped: phase = .ended(.failed)
        case .ended: break
        }
    }

    /// The user pressed Esc: the bridge destroys the source (the compositor then ends the
    /// drag); the outcome is cancelled.
    public mutating func escape() {
        guard case .dragging = phase else { return }
        phase = .ended(.cancelled)
    }
}

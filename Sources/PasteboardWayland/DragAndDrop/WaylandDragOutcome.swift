/// How a drag we started from a Wayland surface ended, as the source learns it from its
/// `wl_data_source` (version 3): what the bridge reports to the drag session.
public enum WaylandDragOutcome: Hashable, Sendable {
    /// `dnd_finished` came after `dnd_drop_performed`: the destination took the data with this
    /// action (`.move` only when the compositor's last `action` event said move).
    case finished(DragOperationKind)
    /// Esc, released where nothing takes the drag (a surface that refuses looks the same to a
    /// Wayland source: `target(null)`), or the compositor cancelled before the drop.
    case cancelled
    /// Dropped, but the destination never finished: `cancelled` after `dnd_drop_performed`.
    case failed
}

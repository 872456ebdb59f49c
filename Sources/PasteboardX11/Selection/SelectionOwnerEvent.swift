/// What a selection owner reports while it runs, in order, on its thread: enough for the bridge
/// to let go when the selection is lost and to log what was served or why not.
public enum SelectionOwnerEvent: Equatable, Sendable {
    /// Another client took the selection (SelectionClear) at `time`: the owner answers no new
    /// request; transfers already started go on to their end, then `run` returns.
    case lost(time: X11Timestamp)
    /// A conversion was delivered whole: `byteCount` bytes, through INCR when `incremental`.
    case served(target: String, requestor: WindowID, byteCount: Int, incremental: Bool)
    /// A request was answered with property None: `reason` says why (unknown target, a time
    /// before our ownership, the provider failed before any byte was sent, …).
    case refused(target: String, requestor: WindowID, reason: String)
    /// A transfer was abandoned after it was answered (mid-INCR): the requestor's window went
    /// away, it stopped reading within the bounded wait, or the provider failed.
    case failed(target: String, requestor: WindowID, reason: String)
}

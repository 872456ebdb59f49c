/// What the compositor asks of one of our data sources, as the session reports it: the pure
/// state machine's output for the source side, which the connection hands to the source's
/// owner outside its lock.
public enum SourceEvent: Equatable, Sendable {
    /// A reader wants `mimeType`: write it into `descriptor` (the write end of the reader's
    /// pipe, now ours to close) and close it.
    case send(source: UInt32, mimeType: String, descriptor: Int32)
    /// The source was replaced (another client, or we, set a new selection) or invalidated; the
    /// session has already queued its `destroy`. Sends already handed out may still finish.
    case cancelled(source: UInt32)
    /// A send for a MIME type the source never offered, or for a source already cancelled or
    /// destroyed: the session closed the descriptor without writing, so the reader sees an empty
    /// transfer at once instead of waiting on a pipe nobody writes.
    case sendRefused(source: UInt32, mimeType: String)
}

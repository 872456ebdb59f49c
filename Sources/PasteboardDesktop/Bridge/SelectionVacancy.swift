import Synchronization

/// The desktop selection left without an owner after the importer brought its content in: the
/// application that copied exited (xclip killed, wl-copy gone) and nobody took its place.
///
/// The pasteboard still holds what the importer kept of that copy (the captured text), so
/// `pb paste` works, but no other desktop application could paste it any more. A clipboard
/// manager takes the selection over at that point and offers what it kept; so does the bridge:
/// the importer, which hears of the owner leaving, posts the change count of its latest import
/// here, after that import's write ended (so the two come in order), and the exporter of the
/// same selection offers that change's kept representations from the daemon, if the pasteboard
/// still holds it and the selection is still ownerless. No pasteboard change is made (the
/// content did not change), and the importer never reads the offer back (X11: the exporter's
/// window is ours; Wayland: the offer carries `WaylandBridgeMarker`).
///
/// One instance per selection, shared by its importer and exporter; the exporter is its only
/// listener (a new `vacancies()` replaces the last).
public final class SelectionVacancy: Sendable {
    private let listener = Mutex<AsyncStream<Int>.Continuation?>(nil)

    public init() {}

    /// The importer: the selection's owner left; `changeCount` is the importer's latest write
    /// (nil: it has made none, so there is nothing of the desktop's to offer).
    public func ownerLeft(afterImport changeCount: Int?) {
        guard let changeCount else { return }
        _ = listener.withLock { $0 }?.yield(changeCount)
    }

    /// The exporter: the change count of each import whose owner left, from now on.
    public func vacancies() -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(4))
        listener.withLock { listener in
            listener?.finish()
            listener = continuation
        }
        return stream
    }
}

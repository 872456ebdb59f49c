import PasteboardSystem

/// The owning side of a selection as an async API: the server takes `selection` for each offer
/// posted to it and serves the requests of other clients through the offer's provider (ICCCM
/// conversions, INCR for large data: `SelectionOwner`), on a connection and a thread of its own
/// (`BlockingWork`), until the selection is lost, a newer request replaces the offer, or it is
/// released. Only the newest request matters: one posted while the last is being offered
/// replaces it and stops the owner serving it.
public final class X11SelectionServer: Sendable {
    /// What to offer: the targets (besides TARGETS, TIMESTAMP and MULTIPLE, which the owner
    /// answers itself), and the provider that streams a requested target's bytes.
    public struct Offer: Sendable {
        /// The caller's name for the offer (the pasteboard's change count, say), in events.
        public let tag: Int
        public let targets: [String]
        public let provide: SelectionOwner.Provider

        public init(tag: Int, targets: [String], provide: @escaping SelectionOwner.Provider) {
            self.tag = tag
            self.targets = targets
            self.provide = provide
        }
    }

    public enum Request: Sendable {
        /// Own the selection for `offer` (when `onlyIfUnowned`, only if nobody owns it now).
        case own(Offer, onlyIfUnowned: Bool)
        /// Own the selection for `offer` (the same content under other names) only if it was
        /// ours until this request stopped its owner.
        case reoffer(Offer)
        /// Give the selection up if we own it.
        case release
    }

    /// What the server did, for the caller's events.
    public enum Event: Sendable {
        /// The selection is ours for `offer`.
        case owning(Offer)
        /// The selection was given up (a release after an owner was stopped).
        case released
        /// Another client took the selection (or took it first).
        case lost
        /// What the owner serving the current offer reported: served, refused, failed, lost.
        case owner(SelectionOwnerEvent)
    }

    let display: X11Display
    let selection: String
    let windows: any X11WindowRegistry
    let requests: SelectionServerRequests

    /// A server for `selection` on `display`, recording its windows in `windows`.
    public init(display: X11Display, selection: String, windows: any X11WindowRegistry) throws(X11Error) {
        self.display = display
        self.selection = selection
        self.windows = windows
        requests = try SelectionServerRequests()
    }

    /// Replaces any waiting request with `request`, and stops the owner serving the last one.
    public func post(_ request: Request) {
        requests.post(request)
    }

    /// Serves the requests posted until the task is cancelled (returns once the server's thread
    /// ended) or the X connection fails (throws).
    public func run(onEvent: @escaping @Sendable (Event) -> Void = { _ in }) async throws(X11Error) {
        let session = try X11SessionThread.start(on: display) { [self] (connection) throws(X11Error) in
            let loop = SelectionServerLoop(server: self, connection: connection, onEvent: onEvent)
            defer { loop.finish() }
            try loop.serve()
        }
        try await session.finish()
    }
}

import PasteboardSystem

/// The requesting side of a selection as an async API: the watch hears of each new owner of
/// `selection` through XFIXES (no polling), reads its TARGETS and the targets `capture` picks
/// (each within `captureBudget` bytes, the whole offer within `offerTimeout`), and reports it,
/// on a connection and a thread of its own (`BlockingWork`). Owner changes to the windows in
/// `windows` (the program's own: its echo) are not reported. The bytes of the other targets
/// stay with the owner until an `X11SelectionFetch` reads them.
public final class X11SelectionWatch: Sendable {
    /// A new owner's offer.
    public struct Offer: Sendable, Equatable {
        public let owner: WindowID
        /// Its TARGETS, in the owner's order.
        public let targets: [String]
        /// The captured targets' bytes as the owner sent them (one over the budget is absent).
        public let captured: [String: [UInt8]]
    }

    /// What the watch saw, in order.
    public enum Event: Sendable, Equatable {
        /// A new foreign owner's offer.
        case offer(Offer)
        /// The selection has no owner now (its owner's window destroyed, its client gone, or
        /// set to None).
        case ownerLeft
        /// The owner of when the watch started has been looked at (its offer, if any, came first).
        case settled
        /// Watching for owner changes (follows `settled`).
        case watching
        /// An owner was not reported, and why (it offered nothing wanted, vanished at once, ...).
        case skipped(String)
    }

    let display: X11Display
    let selection: String
    let windows: any X11WindowRegistry
    let quietPeriod: Duration?
    let offerTimeout: Duration
    let captureBudget: Int
    let capture: @Sendable ([String]) -> [String]?

    /// A watch of `selection` on `display`. `capture` picks, from an owner's TARGETS, the
    /// targets to read at once (nil: the offer is not wanted, reported as skipped). With
    /// `quietPeriod`, an owner is read only once it stayed the owner that long.
    public init(
        display: X11Display, selection: String, windows: any X11WindowRegistry, quietPeriod: Duration? = nil,
        offerTimeout: Duration = .seconds(10), captureBudget: Int, capture: @escaping @Sendable ([String]) -> [String]?
    ) {
        self.display = display
        self.selection = selection
        self.windows = windows
        self.quietPeriod = quietPeriod
        self.offerTimeout = offerTimeout
        self.captureBudget = captureBudget
        self.capture = capture
    }

    /// Reports the current owner, then each new one, to `onEvent` (called on the watch's thread:
    /// it must not block) until the task is cancelled (returns once the thread ended) or the X
    /// connection fails (throws).
    public func run(onEvent: @escaping @Sendable (Event) -> Void) async throws(X11Error) {
        let session = try X11SessionThread.start(on: display) { [self] (connection) throws(X11Error) in
            try SelectionWatchLoop(watch: self, connection: connection).run(onEvent: onEvent)
        }
        try await session.finish()
    }
}

/// An `X11SelectionServer`'s X side, on its thread: takes the selection for each offer with a
/// new window (registered in `windows` before it takes it, so an importer beside it ignores it),
/// serves requests with a `SelectionOwner` until the selection is lost or a newer request stops
/// it, and gives it up when asked. Not Sendable in spirit: it is handed to its thread once and
/// used there only (hence `@unchecked`).
final class SelectionServerLoop: @unchecked Sendable {
    let server: X11SelectionServer
    let connection: X11Connection
    let onEvent: @Sendable (X11SelectionServer.Event) -> Void
    /// Every window this loop owned the selection with: they stay known as ours until the
    /// loop ends, since an importer may look at an owner change of one of them late.
    private var windows: [WindowID] = []

    init(server: X11SelectionServer, connection: X11Connection, onEvent: @escaping @Sendable (X11SelectionServer.Event) -> Void) {
        self.server = server
        self.connection = connection
        self.onEvent = onEvent
    }

    /// Serves requests until the connection is cancelled (throws `.cancelled`) or fails.
    func serve() throws(X11Error) {
        let requests = server.requests
        // Whether the last owner was stopped while it held the selection (so a release request
        // that follows has released something).
        var releasedByStop = false
        while true {
            guard let request = requests.take() else {
                // Idle: sleep until a request (the wakeup) or cancellation; events are not ours to keep.
                _ = try connection.waitForEvent(until: nil, wakeup: requests.wakeup) { _ in true }
                continue
            }
            switch request {
            case .release:
                if releasedByStop { onEvent(.released) }
                releasedByStop = false
            case let .own(offer, onlyIfUnowned):
                releasedByStop = false
                releasedByStop = try own(offer, onlyIfUnowned: onlyIfUnowned) == .stopped
            case let .reoffer(offer):
                // Another client's copy is on the desktop, or the offer was given up: leave it.
                guard releasedByStop else { continue }
                releasedByStop = try own(offer) == .stopped
            }
        }
    }

    /// Takes the selection for `offer` and serves it until it is lost or stopped; nil when it
    /// was not taken (a newer request came first, or another client took it at once).
    /// With `onlyIfUnowned`, only when nobody owns it, decided atomically: the take uses a time
    /// stamp read before the check, which the server refuses if another client took the
    /// selection in between (a copy made as the bridge starts stays the desktop's).
    private func own(_ offer: X11SelectionServer.Offer, onlyIfUnowned: Bool = false) throws(X11Error) -> SelectionOwner.StopReason? {
        let owner = try SelectionOwner(
            connection: connection, selection: server.selection, targets: offer.targets, timeout: server.display.ownerTimeout,
            provider: offer.provide)
        server.windows.insert(owner.window)
        windows.append(owner.window)
        // The window is of no use once its ownership ended (the server would keep it otherwise).
        defer { _ = try? connection.send(.destroyWindow(owner.window), ignoringErrors: true) }
        var checkedAt: X11Timestamp?
        if onlyIfUnowned {
            checkedAt = try owner.serverTime()
            let current = try owner.currentOwner()
            // Someone else's copy is on the desktop: leave it.
            if current != .none { return nil }
        }
        guard server.requests.begin(owner.control) else { return nil }
        defer { server.requests.end() }
        do {
            try owner.acquire(at: checkedAt)
        } catch .ownershipNotTaken {
            onEvent(.lost)
            return .lost
        }
        onEvent(.owning(offer))
        let onEvent = onEvent
        return try owner.run { event in onEvent(.owner(event)) }
    }

    /// Forgets the windows and closes the connection (the server drops what we still own).
    func finish() {
        for window in windows { server.windows.remove(window) }
        windows = []
        connection.close()
    }
}

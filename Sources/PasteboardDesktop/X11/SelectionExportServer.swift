import Pasteboard
import PasteboardX11

/// The exporter's X side, on its own thread: takes the selection for each offered pasteboard
/// change with a new window of ours (registered in `ownWindows` before it takes it, so the
/// importer beside it ignores it), serves requests with a `SelectionOwner` until the selection
/// is lost or a newer request stops it, and gives it up when asked. Not Sendable in spirit: it
/// is handed to its thread once and used there only (hence `@unchecked`).
final class SelectionExportServer: @unchecked Sendable {
    let exporter: X11ClipboardExporter
    let connection: X11Connection
    let requests: ExportRequests
    let board: Pasteboard
    let onEvent: @Sendable (X11ClipboardExporter.Event) -> Void
    /// Every window this server owned the selection with: they stay known as ours until the
    /// server ends, since the importer may look at an owner change of one of them late.
    private var windows: [WindowID] = []

    init(exporter: X11ClipboardExporter, connection: X11Connection, requests: ExportRequests, board: Pasteboard,
         onEvent: @escaping @Sendable (X11ClipboardExporter.Event) -> Void) {
        self.exporter = exporter
        self.connection = connection
        self.requests = requests
        self.board = board
        self.onEvent = onEvent
    }

    /// Serves requests until the connection is cancelled (throws `.cancelled`) or fails.
    func serve() throws(X11Error) {
        let atom = try connection.atom(exporter.selection.x11Name)
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
            case let .own(plan, onlyIfUnowned):
                releasedByStop = false
                if onlyIfUnowned {
                    let owner = try X11Reply.getSelectionOwnerChecked(connection.roundTrip(.getSelectionOwner(atom), timeout: exporter.display.ownerTimeout))
                    // Someone else's copy is on the desktop: the importer brings it in instead.
                    if owner != .none { continue }
                }
                releasedByStop = try own(plan) == .stopped
            case let .reoffer(plan):
                // Another client's copy is on the desktop, or the change was given up: leave it.
                guard releasedByStop else { continue }
                releasedByStop = try own(plan) == .stopped
            }
        }
    }

    /// Takes the selection for `plan` and serves it until it is lost or stopped; nil when it
    /// was not taken (a newer request came first, or another client took it at once).
    private func own(_ plan: DesktopExportPlan) throws(X11Error) -> SelectionOwner.StopReason? {
        let content = ExportedContent(board: board, plan: plan)
        let owner = try SelectionOwner(
            connection: connection, selection: exporter.selection.x11Name, targets: plan.targetNames,
            timeout: exporter.display.ownerTimeout
        ) { request, writer in
            try await content.provide(request, into: writer)
        }
        exporter.ownWindows.insert(owner.window)
        windows.append(owner.window)
        // The window is of no use once its ownership ended (the server would keep it otherwise).
        defer { _ = try? connection.send(.destroyWindow(owner.window), ignoringErrors: true) }
        guard requests.begin(owner.control) else { return nil }
        defer { requests.end() }
        do {
            try owner.acquire()
        } catch .ownershipNotTaken {
            onEvent(.lost)
            return .lost
        }
        onEvent(.owning(changeCount: plan.changeCount, targets: plan.targetNames))
        let onEvent = onEvent
        return try owner.run { event in
            switch event {
            case .lost: onEvent(.lost)
            case let .served(target, _, byteCount, _): onEvent(.served(target: target, bytes: byteCount))
            case let .refused(target, _, reason): onEvent(.refused(target: target, reason: reason))
            case let .failed(target, _, reason): onEvent(.abandoned(target: target, reason: reason))
            }
        }
    }

    /// Forgets the windows and closes the connection (the server drops what we still own).
    func finish() {
        for window in windows { exporter.ownWindows.remove(window) }
        windows = []
        connection.close()
    }
}

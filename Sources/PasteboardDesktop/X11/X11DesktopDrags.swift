public import Pasteboard
public import PasteboardX11

/// The bridge's lane that puts drag sessions on the X11 desktop: each session in flight whose
/// source asked for it (`pb drag --desktop`, `DragSession.begin(showOnDesktop:)`) gets a drag
/// handle near the pointer, from which the user drags its items into any application speaking
/// XDND (`X11SessionHandle`); the handle goes when the session ends, however it ends.
public struct X11DesktopDrags: DesktopLane {
    /// What the lane did, for a log line or a test to wait on.
    public enum Event: Sendable, Equatable {
        /// Something happened at session `session`'s handle.
        case handle(session: Int, X11DragHandle.Event)
        /// Session `session` is not shown, for `reason`.
        case skipped(session: Int, reason: String)
        /// Session `session`'s handle failed (the display went away, the daemon refused the drop).
        case failed(session: Int, reason: String)
    }

    public var display: X11Display
    /// The type mapping, following the daemon's registry (shared by the bridge's lanes).
    public let mappings: FollowedTypeMapping
    /// The bridge's windows, so its importers do not read XdndSelection's owner as a copy.
    public var ownWindows: DesktopOwnWindows

    public init(display: X11Display, mappings: FollowedTypeMapping, ownWindows: DesktopOwnWindows = DesktopOwnWindows()) {
        self.display = display
        self.mappings = mappings
        self.ownWindows = ownWindows
    }

    public func run(on connection: PasteboardConnection, onEvent: @escaping @Sendable (Event) -> Void) async throws {
        var handles: [Int: Task<Void, Never>] = [:]
        defer { for task in handles.values { task.cancel() } }
        for try await update in DropSession.updates(on: connection) {
            switch update {
            case let .began(session) where session.isShownOnDesktop && !session.isDropped:
                let handle = X11SessionHandle(session: session, display: display, mapping: mappings.current, ownWindows: ownWindows)
                handles[session.id] = Task {
                    do {
                        try await handle.run(onEvent: onEvent)
                    } catch is CancellationError {
                    } catch X11Error.cancelled {
                    } catch {
                        onEvent(.failed(session: session.id, reason: "\(error)"))
                    }
                }
            case let .ended(id):
                handles.removeValue(forKey: id)?.cancel()
            case .began, .changed:
                break
            }
        }
    }
}

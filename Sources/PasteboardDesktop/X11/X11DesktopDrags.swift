public import Pasteboard
public import PasteboardX11

/// The bridge's lane that puts drag sessions on the X11 desktop: each session in flight whose
/// source asked for it (`pb drag --desktop`, `DragSession.begin(showOnDesktop:)`) gets a drag
/// handle near the pointer, from which the user drags its items into any application speaking
/// XDND (`X11SessionHandle`); the handle goes when the session ends, however it ends. Each drop
/// zone a destination keeps (`DropSession.fromDesktop`) gets a window applications drop into
/// (`X11ZoneHandle`).
public struct X11DesktopDrags: DesktopLane {
    /// What the lane did, for a log line or a test to wait on.
    public enum Event: Sendable, Equatable {
        /// Something happened at session `session`'s handle.
        case handle(session: Int, X11DragHandle.Event)
        /// Session `session` is not shown, for `reason`.
        case skipped(session: Int, reason: String)
        /// Something happened at drop zone `zone`'s window.
        case zone(zone: Int, X11DropZone.Event)
        /// Session `session`'s handle, or a drop zone (`session` nil), failed: the display went
        /// away, the daemon refused the drop.
        case failed(session: Int?, reason: String)
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

    /// The most drag handles shown at once: each is two X connections (the window, the owner
    /// of XdndSelection), and the X server serves a few hundred clients in all.
    public static let mostHandles = 8

    public func run(on connection: PasteboardConnection, onEvent: @escaping @Sendable (Event) -> Void) async throws {
        var handles: [Int: Task<Void, Never>] = [:]
        var skipped: Set<Int> = []
        var zones: [Int: X11ZoneHandle] = [:]
        var zoneTasks: [Int: Task<Void, Never>] = [:]
        defer {
            for task in handles.values { task.cancel() }
            for task in zoneTasks.values { task.cancel() }
        }
        for try await (sessions, openZones) in DropSession.desktopLists(on: connection) {
            // Sessions: a handle for each new desktop session still lifted; gone when it ends.
            let ids = Set(sessions.map(\.id))
            for id in handles.keys where !ids.contains(id) { handles.removeValue(forKey: id)?.cancel() }
            skipped.formIntersection(ids)
            for session in sessions where session.isShownOnDesktop && !session.isDropped && handles[session.id] == nil && !skipped.contains(session.id) {
                guard handles.count < Self.mostHandles else {
                    skipped.insert(session.id)
                    onEvent(.skipped(session: session.id, reason: "\(Self.mostHandles) drag handles are shown, the most at once"))
                    continue
                }
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
            }
            // Zones: a window for each new one; retired when its destination stops waiting.
            let zoneIDs = Set(openZones.map(\.id))
            for (id, zone) in zones where !zoneIDs.contains(id) {
                // Its task ends by itself once a drop being delivered is answered.
                zone.retire()
                zones[id] = nil
                // Not cancelled: it answers the drop it may be delivering, then ends by itself
                // (on the lane's connection, which it fails with when that goes).
                zoneTasks[id] = nil
            }
            for zone in openZones where zones[zone.id] == nil {
                do {
                    let handle = try X11ZoneHandle(zone: zone, display: display, mapping: mappings.current)
                    zones[zone.id] = handle
                    zoneTasks[zone.id] = Task {
                        do {
                            try await handle.run(on: connection, onEvent: onEvent)
                        } catch is CancellationError {
                        } catch X11Error.cancelled {
                        } catch {
                            onEvent(.failed(session: nil, reason: "drop zone \(zone.id): \(error)"))
                        }
                    }
                } catch {
                    onEvent(.failed(session: nil, reason: "drop zone \(zone.id): \(error)"))
                }
            }
        }
    }
}

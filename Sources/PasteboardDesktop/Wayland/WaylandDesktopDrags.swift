public import Pasteboard
public import PasteboardWayland
import Synchronization

/// The bridge's lane that puts drag sessions on the Wayland desktop, as `X11DesktopDrags` does
/// on X11: each session in flight whose source asked for it gets a drag handle
/// (`WaylandSessionHandle`), gone when the session ends; each drop zone a destination keeps gets
/// a window applications drop into (`WaylandZoneHandle`). Each window is a connection of its
/// own to the compositor, beside the clipboard lanes' data-control connections.
public struct WaylandDesktopDrags: DesktopLane {
    /// What the lane did, for a log line or a test to wait on.
    public enum Event: Sendable, Equatable {
        /// Something happened at session `session`'s handle.
        case handle(session: Int, WaylandWindow.Event)
        /// Session `session` is not shown, for `reason`.
        case skipped(session: Int, reason: String)
        /// Something happened at drop zone `zone`'s window.
        case zone(zone: Int, WaylandWindow.Event)
        /// A drop into zone `zone` was answered: finished with `performed`, or failed (nil).
        case zoneFinished(zone: Int, performed: DragOperationKind?)
        /// Session `session`'s handle, or a drop zone (`session` nil), failed.
        case failed(session: Int?, reason: String)
    }

    public var display: WaylandDisplay
    /// The type mapping, following the daemon's registry (shared by the bridge's lanes).
    public let mappings: FollowedTypeMapping

    public init(display: WaylandDisplay, mappings: FollowedTypeMapping) {
        self.display = display
        self.mappings = mappings
    }

    /// The most drag handles shown at once: each is a compositor connection.
    public static let mostHandles = X11DesktopDrags.mostHandles

    public func run(on connection: PasteboardConnection, onEvent: @escaping @Sendable (Event) -> Void) async throws {
        let socketPath = try display.resolvedSocketPath()
        let timeout = display.ownerTimeout
        var handles: [Int: Task<Void, Never>] = [:]
        var skipped: Set<Int> = []
        var zones: [Int: (entry: ZoneEntry, task: Task<Void, Never>)] = [:]
        defer {
            for task in handles.values { task.cancel() }
            for zone in zones.values {
                zone.entry.retire()
                zone.task.cancel()
            }
        }
        for try await (sessions, openZones) in DropSession.desktopLists(on: connection) {
            let ids = Set(sessions.map(\.id))
            for id in handles.keys where !ids.contains(id) { handles.removeValue(forKey: id)?.cancel() }
            skipped.formIntersection(ids)
            for session in sessions where session.isShownOnDesktop && !session.isDropped && handles[session.id] == nil && !skipped.contains(session.id) {
                guard handles.count < Self.mostHandles else {
                    skipped.insert(session.id)
                    onEvent(.skipped(session: session.id, reason: "\(Self.mostHandles) drag handles are shown, the most at once"))
                    continue
                }
                let handle = WaylandSessionHandle(session: session, socketPath: socketPath, timeout: timeout, mapping: mappings.current)
                handles[session.id] = Task {
                    do {
                        try await handle.run(onEvent: onEvent)
                    } catch is CancellationError {
                    } catch {
                        onEvent(.failed(session: session.id, reason: "\(error)"))
                    }
                }
            }
            // Zones: a window for each new one; retired when its destination stops waiting
            // (it answers a drop it is delivering first, then ends by itself).
            let zoneIDs = Set(openZones.map(\.id))
            for (id, zone) in zones where !zoneIDs.contains(id) {
                zones[id] = nil
                zone.entry.retire()
            }
            for zone in openZones where zones[zone.id] == nil {
                let mapping = mappings.current
                let entry = ZoneEntry()
                let task = Task {
                    do {
                        let handle = try await WaylandZoneHandle.open(zone: zone, socketPath: socketPath, timeout: timeout, mapping: mapping)
                        entry.opened(handle)
                        try await handle.run(on: connection, onEvent: onEvent)
                    } catch is CancellationError {
                    } catch {
                        onEvent(.failed(session: nil, reason: "drop zone \(zone.id): \(error)"))
                    }
                }
                zones[zone.id] = (entry, task)
            }
        }
    }
}

/// A drop zone's window as the lane knows it: opened by its task, retired by the lane (before
/// or after it opened).
final class ZoneEntry: Sendable {
    private let state = Mutex<(handle: WaylandZoneHandle?, retired: Bool)>((nil, false))

    func opened(_ handle: WaylandZoneHandle) {
        let retired = state.withLock { state in
            state.handle = handle
            return state.retired
        }
        if retired { handle.retire() }
    }

    func retire() {
        let handle = state.withLock { state in
            state.retired = true
            return state.handle
        }
        handle?.retire()
    }
}

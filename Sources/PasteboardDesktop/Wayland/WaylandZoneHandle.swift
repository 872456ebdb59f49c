import Pasteboard
import PasteboardDesktopTypes
import PasteboardTypes
import PasteboardWayland
import Synchronization

/// One drop zone shown on the Wayland desktop for a waiting destination
/// (`DropSession.fromDesktop`): a `WaylandWindow` in the zone role, and each drop into it
/// carried to the destination as a session only it sees, as on X11 (`X11ZoneHandle`): the
/// files of a `text/uri-list` as file representations, any other drop one item whose types are
/// read from the application (`wl_data_offer.receive`) only as the destination loads them.
/// The session's end is the application's answer: `finish` with the action performed (a copy
/// of a move said first, so the source keeps its original), or only `destroy` when it failed.
///
/// The zone stays up while a drop into it is being delivered, even after its destination
/// stopped waiting (`retire()`), so the application is always answered.
final class WaylandZoneHandle: Sendable {
    let zone: DropZone
    let mapping: DesktopTypeMapping
    let timeout: Duration
    private let window: WaylandWindow
    private let state = Mutex((retired: false, delivering: false))

    /// The app id of drop zones, by which a compositor's rules may place them.
    static let appID = "pasteboard-drop-zone"

    private init(zone: DropZone, mapping: DesktopTypeMapping, timeout: Duration, window: WaylandWindow) {
        self.zone = zone
        self.mapping = mapping
        self.timeout = timeout
        self.window = window
    }

    /// Opens the zone's window on the compositor at `socketPath`.
    static func open(zone: DropZone, socketPath: String, timeout: Duration, mapping: DesktopTypeMapping) async throws -> WaylandZoneHandle {
        let wanted = X11ZoneHandle.acceptedNames(zone.accepted, mapping: mapping)
        let target = WaylandDropTarget(takes: [.copy, .move]) { offered in Self.choose(from: offered, wanted: wanted) }
        let canvas = X11ZoneHandle.canvas(of: zone)
        let window = try await WaylandWindow.open(
            socketPath: socketPath, role: .dropZone(target),
            picture: SurfaceSession.Picture(title: "Pasteboard: drop zone \(zone.id)", appID: appID, width: canvas.width, height: canvas.height),
            pixels: canvas.littleEndianBytes, timeout: timeout)
        return WaylandZoneHandle(zone: zone, mapping: mapping, timeout: timeout, window: window)
    }

    /// The type a zone wanting `wanted` (best first; empty: anything) takes of `offered`: files
    /// first when anything goes, else the source's first MIME type. GTK also offers `DELETE`,
    /// an X11 target of its own that is no MIME type, and is never taken.
    static func choose(from offered: [String], wanted: [String]) -> String? {
        let types = offered.filter { $0.contains("/") }
        guard !wanted.isEmpty else { return types.contains(X11ZoneHandle.uriList) ? X11ZoneHandle.uriList : types.first }
        return wanted.first { types.contains($0) }
    }

    /// The destination stopped waiting: the zone goes, once a drop being delivered is answered.
    func retire() {
        // A drop held by the window but not yet taken up by `run` counts as being delivered:
        // the window sets it before it hands the event out.
        let holding = window.isHoldingDrop
        let close = state.withLock { state in
            state.retired = true
            return !state.delivering && !holding
        }
        if close { window.close() }
    }

    /// Shows the zone and delivers its drops until retired (returns) or the compositor fails (throws).
    func run(on connection: PasteboardConnection, onEvent: @escaping @Sendable (WaylandDesktopDrags.Event) -> Void) async throws {
        for await event in window.events {
            onEvent(.zone(zone: zone.id, event))
            guard case let .dropped(drop) = event else { continue }
            state.withLock { $0.delivering = true }
            let performed: DragOperationKind?
            do {
                performed = try await deliver(drop, on: connection)
            } catch {
                onEvent(.failed(session: nil, reason: "a drop into zone \(zone.id) could not be delivered: \(error)"))
                performed = nil
            }
            if performed == .move { askSourceToDelete(drop) }
            window.finishDrop(performed: performed)
            onEvent(.zoneFinished(zone: zone.id, performed: performed))
            let close = state.withLock { state in
                state.delivering = false
                return state.retired
            }
            if close { window.close() }
        }
        if let failure = window.failure { throw failure }
    }

    /// A move performed: asks for `DELETE` before the finish, where the source offers it. GTK
    /// offers that name on Wayland too and deletes its original on that request, as on X11,
    /// not on `dnd_finished`'s action. It does not answer it (the pipe stays open): nothing is
    /// waited for, the request only goes out before the finish.
    private func askSourceToDelete(_ drop: SurfaceSession.Drop) {
        guard drop.types.contains(Self.deleteTarget) else { return }
        try? window.requestDiscarding(Self.deleteTarget, timeout: timeout)
    }

    static let deleteTarget = "DELETE"

    /// Lifts a session with `drop`'s items for the zone and waits for its end: the operation
    /// the destination performed, nil when it failed or was cancelled.
    private func deliver(_ drop: SurfaceSession.Drop, on connection: PasteboardConnection) async throws -> DragOperationKind? {
        let performed = try await DesktopZoneDelivery.deliver(try await items(for: drop), asMove: drop.operation == .move, zone: zone.id, on: connection)
        return performed.map { $0 == .move ? .move : .copy }
    }

    /// The items of `drop`: its files when it was accepted as a `text/uri-list` naming local
    /// ones, else one item promising every offered type the registry can name.
    private func items(for drop: SurfaceSession.Drop) async throws -> [ItemProvider] {
        if drop.chosen == X11ZoneHandle.uriList {
            var list: [UInt8] = []
            try await window.receive(X11ZoneHandle.uriList, timeout: timeout) { chunk in
                list += chunk
                if list.count > X11ZoneHandle.uriListLimit {
                    throw DesktopImportError.tooLargeToConvert(target: X11ZoneHandle.uriList, limit: X11ZoneHandle.uriListLimit)
                }
            }
            let files = DesktopDropItems.fileItems(DesktopDropItems.filePaths(inURIList: list), registry: mapping.registry)
            if !files.isEmpty { return files }
        }
        var item = ItemProvider()
        for representation in mapping.representations(forOffered: drop.types.filter { $0.contains("/") }).representations {
            let fetch = WaylandDropFetch(window: window, representation: representation, timeout: timeout)
            item.registerDataRepresentation(for: representation.type) { writer in try await fetch.stream(into: writer) }
        }
        return item.registeredTypes.isEmpty ? [] : [item]
    }
}

/// One lazy representation of a Wayland drop, read from the dropping application when the
/// destination loads it: `receive` on the zone's window, the pipe streamed into the writer
/// chunk by chunk (under the daemon's flow control), the application's silence bounded by
/// `timeout`.
struct WaylandDropFetch: Sendable {
    let window: WaylandWindow
    let representation: DesktopRepresentation
    let timeout: Duration

    func stream(into writer: RepresentationWriter) async throws {
        let target = representation.target
        do {
            try await WaylandOfferFetch.stream(representation, into: writer) { chunk in
                try await window.receive(target, timeout: timeout, chunk: chunk)
            }
        } catch let error as WaylandError {
            // The generic wording speaks of a selection owner; here it is the dropping application.
            let reason = if case let .transferTimedOut(_, received) = error {
                "the application that dropped it neither wrote nor closed its pipe for \(timeout) (\(received) bytes received)"
            } else {
                error.description
            }
            throw DesktopImportError.fetchFailed(selection: "the Wayland drop", target: target, reason: reason)
        }
    }
}

import Pasteboard
import PasteboardDesktopTypes
import PasteboardTypes
import PasteboardX11
import Synchronization

/// One drop zone shown on the X11 desktop for a waiting destination (`DropSession.fromDesktop`):
/// the window (`X11DropZone`), and each drop into it carried to the destination as a session
/// only it sees, lifted by the bridge with the drop's items (`DesktopDropItems`: files as file
/// representations, other data promised and read from the application as it loads). The
/// session's end is the application's answer: XdndFinished with the operation the destination
/// performed (a move only when the application asked for one), or failed.
///
/// The zone stays up while a drop into it is being delivered, even after its destination
/// stopped waiting (`retire()`), so the application is always answered.
final class X11ZoneHandle: Sendable {
    let zone: DropZone
    let display: X11Display
    let mapping: DesktopTypeMapping
    private let state = Mutex((retired: false, delivering: false))
    private let window: X11DropZone

    init(zone: DropZone, display: X11Display, mapping: DesktopTypeMapping) throws(X11Error) {
        self.zone = zone
        self.display = display
        self.mapping = mapping
        window = try X11DropZone(
            display: display, picture: Self.picture(of: zone), accepting: Self.acceptedNames(zone.accepted, mapping: mapping),
            operations: [.copy, .move])
    }

    /// The destination stopped waiting: the zone goes, once a drop being delivered is answered.
    func retire() {
        let close = state.withLock { state in
            state.retired = true
            return !state.delivering
        }
        if close { window.close() }
    }

    /// Shows the zone and delivers its drops until retired (returns) or the display fails (throws).
    func run(on connection: PasteboardConnection, onEvent: @escaping @Sendable (X11DesktopDrags.Event) -> Void) async throws {
        let (events, sink) = AsyncStream.makeStream(of: X11DropZone.Event.self)
        let (zone, window) = (zone, window)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { sink.finish() }
                try await window.run { event in
                    if case .dropped = event { self.state.withLock { $0.delivering = true } }
                    sink.yield(event)
                }
            }
            group.addTask {
                for await event in events {
                    onEvent(.zone(zone: zone.id, event))
                    guard case let .dropped(drop) = event else { continue }
                    let performed: XdndOperation?
                    do {
                        performed = try await self.deliver(drop, on: connection)
                    } catch {
                        onEvent(.failed(session: nil, reason: "a drop into zone \(zone.id) could not be delivered: \(error)"))
                        performed = nil
                    }
                    if performed == .move { await self.askSourceToDelete(owner: drop.owner) }
                    window.finishDrop(performed: performed)
                    let close = self.state.withLock { state in
                        state.delivering = false
                        return state.retired
                    }
                    if close { window.close() }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Lifts a session with `drop`'s items for the zone and waits for its end: the operation
    /// the destination performed, nil when it failed or was cancelled.
    private func deliver(_ drop: X11DropZone.Drop, on connection: PasteboardConnection) async throws -> XdndOperation? {
        let performed = try await DesktopZoneDelivery.deliver(try await items(for: drop), asMove: drop.operation == .move, zone: zone.id, on: connection)
        return performed.map { $0 == .move ? .move : .copy }
    }

    /// A move performed: converts XdndSelection to `DELETE` (ICCCM's target for "the requestor
    /// is done with the data, delete it") before the Finished, since GTK and Xlib-era sources
    /// delete their original on that conversion, not on XdndFinished's action. Its answer
    /// (empty, or a refusal from a source that deletes on the Finished alone) does not matter.
    private func askSourceToDelete(owner: WindowID?) async {
        guard let owner else { return }
        let delete = X11TargetFetch(display: display, selection: Self.selection, representation: DesktopRepresentation(
            type: .data, target: "DELETE", conversion: .none), owner: owner)
        _ = try? await delete.readWhole(limit: 1 << 10)
    }

    /// The items of `drop`: its files when it was accepted as a `text/uri-list` naming local
    /// ones, else one item promising every offered type the registry can name.
    private func items(for drop: X11DropZone.Drop) async throws -> [ItemProvider] {
        // The owner at the drop, or a window that can own nothing: a read then fails as the
        // source's being gone, never taking another application's data.
        guard drop.owner != nil else { throw DesktopImportError.ownerGone(selection: Self.selection, target: drop.chosen) }
        if drop.chosen == Self.uriList {
            let list = X11TargetFetch(display: display, selection: Self.selection, representation: DesktopRepresentation(
                type: .fileURL, target: Self.uriList, conversion: .none), owner: drop.owner)
            let bytes = try await list.readWhole(limit: Self.uriListLimit)
            let files = DesktopDropItems.fileItems(DesktopDropItems.filePaths(inURIList: bytes), registry: mapping.registry)
            if !files.isEmpty { return files }
        }
        var item = ItemProvider()
        for representation in mapping.representations(forOffered: drop.offered).representations {
            let fetch = X11TargetFetch(display: display, selection: Self.selection, representation: representation, owner: drop.owner)
            item.registerDataRepresentation(for: representation.type) { writer in try await fetch.stream(into: writer) }
        }
        return item.registeredTypes.isEmpty ? [] : [item]
    }

    static let selection = "XdndSelection"
    static let uriList = "text/uri-list"
    /// The most bytes of a dropped file list read: 1 MiB names some thousands of files.
    static let uriListLimit = 1 << 20

    /// The names a zone taking `accepted` (empty: any) wants, best first: files first, then the
    /// MIME types of every declared type that conforms to an accepted one.
    static func acceptedNames(_ accepted: [TypeIdentifier], mapping: DesktopTypeMapping) -> [String] {
        guard !accepted.isEmpty else { return [] }
        var names: [String] = [uriList]
        func add(_ name: String) { if !names.contains(name) { names.append(name) } }
        for type in accepted {
            mapping.targets(for: type).forEach(add)
            for declaration in mapping.registry.declarations where mapping.registry.conforms(declaration.identifier, to: type) {
                mapping.targets(for: declaration.identifier).forEach(add)
            }
        }
        return names.filter { $0 != DesktopTypeMapping.untypedBytesTarget || accepted.contains(.data) }
    }

    /// The zone's picture: "Drop here", the destination's title, and what it takes.
    static func picture(of zone: DropZone) -> X11DragHandle.Picture {
        let canvas = canvas(of: zone)
        return X11DragHandle.Picture(
            title: "Pasteboard: drop zone \(zone.id)", width: canvas.width, height: canvas.height, pixels: canvas.littleEndianBytes)
    }

    /// The zone's picture drawn, for either desktop.
    static func canvas(of zone: DropZone) -> Canvas {
        let title = zone.title ?? "\(zone.app) (pid \(zone.pid))"
        let takes = zone.accepted.isEmpty ? "anything" : zone.accepted.prefix(3).map(\.rawValue).joined(separator: ", ")
        return DragHandleDrawing(items: [DragHandleDrawing.Item(title: "Drop here: \(title)")], caption: "takes files or \(takes)").draw()
    }
}

public import Pasteboard
public import PasteboardDesktopTypes
import PasteboardTypes
public import PasteboardX11

/// The second direction of the X11 bridge: what is copied on the pasteboard (`pb copy`, an
/// app through the library, a lazy source) becomes the desktop's selection, so Ctrl+V in any
/// X application pastes it.
///
/// It watches the pasteboard; for each change not made by the bridge itself (`echo`: the
/// importer's writes of desktop copies), it takes the selection with a window of its own
/// (known in `ownWindows`, so the importer does not read it back) and offers the first item's
/// representations as targets (`DesktopExportPlan`: MIME types, the X11 names of text, the
/// password-manager hint of a secret). Each request is served by loading that representation
/// from the daemon at that moment, streamed with bounded memory (INCR for large data). A
/// cleared pasteboard gives the selection up; another client taking it ends our ownership
/// (its copy comes in through the importer). When that client exits without a successor
/// (`vacancy`), the selection is taken again for what the pasteboard kept of its copy, as a
/// clipboard manager does, so other applications can still paste it. At start, content already on the pasteboard is
/// offered only when nobody owns the selection.
public struct X11ClipboardExporter: DesktopLane {
    /// What the exporter did, for a log line or a test to wait on.
    public enum Event: Sendable, Equatable {
        /// Watching the pasteboard for changes.
        case watching
        /// The selection is ours for the pasteboard's change `changeCount`, offering `targets`
        /// (besides TARGETS, TIMESTAMP and MULTIPLE).
        case owning(changeCount: Int, targets: [String])
        /// The selection was given up (the pasteboard was cleared, or has nothing the desktop can take).
        case released
        /// Another client took the selection.
        case lost
        /// A request for `target` was answered with `bytes` bytes.
        case served(target: String, bytes: Int)
        /// A request for `target` was refused (property None): the pasteboard changed, the load
        /// failed (a lazy source gone: source-unavailable), the target is not offered, ...
        case refused(target: String, reason: String)
        /// A transfer of `target` was given up after it began (INCR): the requestor went away or
        /// stopped reading, or the load failed part way.
        case abandoned(target: String, reason: String)
    }

    public var display: X11Display
    public var selection: DesktopSelection
    /// The type mapping, following the daemon's registry (shared by the bridge's lanes).
    public let mappings: FollowedTypeMapping
    /// The mapping as it is now.
    public var mapping: DesktopTypeMapping { mappings.current }
    /// The bridge's windows, shared with the importer of the same display.
    public var ownWindows: DesktopOwnWindows
    /// The record of the importer's writes, shared with the importer of the same selection.
    public var echo: BridgeEcho
    /// Where the importer of the same selection tells of the owner leaving after an import.
    public var vacancy = SelectionVacancy()

    public init(
        display: X11Display, selection: DesktopSelection = .clipboard, mappings: FollowedTypeMapping,
        ownWindows: DesktopOwnWindows = DesktopOwnWindows(), echo: BridgeEcho = BridgeEcho()
    ) {
        self.display = display
        self.selection = selection
        self.mappings = mappings
        self.ownWindows = ownWindows
        self.echo = echo
    }

    /// Offers each change of the pasteboard to the desktop through `connection`, until the task
    /// is cancelled (returns, once its X thread ended) or the X connection fails (throws
    /// `DesktopExportError.displayFailed`). The X side is PasteboardX11's `X11SelectionServer`.
    public func run(on connection: PasteboardConnection, onEvent: @escaping @Sendable (Event) -> Void = { _ in }) async throws {
        let name = selection.x11Name
        let server: X11SelectionServer
        do {
            server = try X11SelectionServer(display: display, selection: name, windows: ownWindows)
        } catch {
            throw DesktopExportError.displayFailed(selection: name, reason: "\(error)")
        }
        let board = Pasteboard(name: selection.pasteboardName, connection: connection)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await watch(board, server: server, onEvent: onEvent)
            }
            group.addTask {
                do throws(X11Error) {
                    try await server.run { event in
                        if let event = Event(event) { onEvent(event) }
                    }
                } catch {
                    throw DesktopExportError.displayFailed(selection: name, reason: error.description)
                }
            }
            // Whichever ends first ends both: the server's thread is cancelled (and the group waits for it).
            defer { group.cancelAll() }
            _ = try await group.next()
        }
    }

    /// Turns each pasteboard change, and each owner leaving after an import, into a request of
    /// the X server.
    private func watch(_ board: Pasteboard, server: X11SelectionServer, onEvent: @Sendable (Event) -> Void) async throws {
        var first = true
        var current: PasteboardContents?
        var follower = VacancyFollower()
        /// The targets last offered for a change of the pasteboard's own (not an import's).
        var offered: [String]?
        // The daemon answers a watch with the content as it is, then each change.
        for try await input in ExporterInput.stream(board: board, vacancy: vacancy, mappings: mappings) {
            switch input {
            case .mappingChanged:
                // Declared types have new MIME types: the selection, if still ours, is offered again under them.
                guard let contents = current, let item = contents.items.first, let before = offered,
                      !(await echo.isOwnChange(contents.changeCount)) else { continue }
                let plan = self.plan(types: item.types, of: item, in: contents)
                if plan.targetNames != before, !plan.targets.isEmpty {
                    server.post(.reoffer(offer(plan, board: board)))
                    offered = plan.targetNames
                }
            case .ownerLeft(let changeCount):
                if follower.ownerLeft(afterImport: changeCount, current: current?.changeCount) != nil, let current {
                    await offerKept(current, board: board, server: server)
                }
            case .changed(let contents):
                current = contents
                defer {
                    if first { onEvent(.watching) }
                    first = false
                }
                if await echo.isOwnChange(contents.changeCount) {
                    if follower.reached(contents.changeCount) { await offerKept(contents, board: board, server: server) }
                    continue
                }
                offered = nil
                guard let item = contents.items.first else {
                    if !first { server.post(.release) }
                    continue
                }
                // Nothing the desktop can take: the old content must not stay on the desktop either.
                let plan = self.plan(types: item.types, of: item, in: contents)
                server.post(plan.targets.isEmpty ? .release : .own(offer(plan, board: board), onlyIfUnowned: first))
                if !plan.targets.isEmpty { offered = plan.targetNames }
            }
        }
    }

    /// The import `contents` is the pasteboard's while its desktop owner left: the selection is
    /// taken (only if still ownerless) for what the import kept (its captured text; the owner's
    /// promises left with it), served from the daemon. No pasteboard change: the content is the same.
    private func offerKept(_ contents: PasteboardContents, board: Pasteboard, server: X11SelectionServer) async {
        guard let item = contents.items.first, let kept = await echo.keptTypes(of: contents.changeCount) else { return }
        let types = item.types.filter(kept.contains)
        guard !types.isEmpty else { return }
        let plan = plan(types: types, of: item, in: contents)
        if !plan.targets.isEmpty { server.post(.own(offer(plan, board: board), onlyIfUnowned: true)) }
    }

    /// The server's offer of `plan`: its targets, served by loading from the daemon on request.
    private func offer(_ plan: DesktopExportPlan, board: Pasteboard) -> X11SelectionServer.Offer {
        let content = ExportedContent(board: board, plan: plan)
        return X11SelectionServer.Offer(tag: plan.changeCount, targets: plan.targetNames) { request, writer in
            try await content.provide(request, into: writer)
        }
    }

    private func plan(types: [TypeIdentifier], of item: PasteboardItem, in contents: PasteboardContents) -> DesktopExportPlan {
        DesktopExportPlan(
            types: types, isSensitive: item.isSensitive, changeCount: contents.changeCount, mapping: mapping,
            reservedNames: DesktopTypeMapping.plumbingTargets.union(SelectionOwner.plumbingTargets))
    }
}

extension X11ClipboardExporter.Event {
    /// The server's event as the exporter's (nil for none it reports).
    init?(_ event: X11SelectionServer.Event) {
        switch event {
        case .owning(let offer): self = .owning(changeCount: offer.tag, targets: offer.targets)
        case .released: self = .released
        case .lost: self = .lost
        case .owner(.lost): self = .lost
        case let .owner(.served(target, _, byteCount, _)): self = .served(target: target, bytes: byteCount)
        case let .owner(.refused(target, _, reason)): self = .refused(target: target, reason: reason)
        case let .owner(.failed(target, _, reason)): self = .abandoned(target: target, reason: reason)
        }
    }
}

public import Pasteboard
public import PasteboardDesktopTypes
import PasteboardTypes
import PasteboardX11

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
    /// `DesktopExportError.displayFailed`).
    public func run(on connection: PasteboardConnection, onEvent: @escaping @Sendable (Event) -> Void = { _ in }) async throws {
        let name = selection.x11Name
        let x11: X11Connection
        let requests: ExportRequests
        do {
            x11 = try display.connect()
            requests = try ExportRequests()
        } catch {
            throw DesktopExportError.displayFailed(selection: name, reason: "\(error)")
        }
        let board = Pasteboard(name: selection.pasteboardName, connection: connection)
        let server = SelectionExportServer(exporter: self, connection: x11, requests: requests, board: board, onEvent: onEvent)
        let cancellation = x11.cancellation
        let ended = OneShot<X11Error?>()
        DetachedThread.run {
            let failure: X11Error?
            do throws(X11Error) {
                try server.serve()
                failure = nil
            } catch .cancelled {
                failure = nil
            } catch {
                failure = error
            }
            server.finish()
            ended.resolve(failure)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await watch(board, requests: requests, onEvent: onEvent)
            }
            group.addTask {
                if let failure = await ended.value() { throw DesktopExportError.displayFailed(selection: name, reason: failure.description) }
            }
            // Whichever ends first ends both: the thread is cancelled (and the group waits for it).
            defer {
                group.cancelAll()
                cancellation.cancel()
            }
            _ = try await group.next()
        }
    }

    /// Turns each pasteboard change, and each owner leaving after an import, into a request of
    /// the X thread.
    private func watch(_ board: Pasteboard, requests: ExportRequests, onEvent: @Sendable (Event) -> Void) async throws {
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
                    requests.post(.reoffer(plan))
                    offered = plan.targetNames
                }
            case .ownerLeft(let changeCount):
                if follower.ownerLeft(afterImport: changeCount, current: current?.changeCount) != nil, let current {
                    await offerKept(current, requests: requests)
                }
            case .changed(let contents):
                current = contents
                defer {
                    if first { onEvent(.watching) }
                    first = false
                }
                if await echo.isOwnChange(contents.changeCount) {
                    if follower.reached(contents.changeCount) { await offerKept(contents, requests: requests) }
                    continue
                }
                offered = nil
                guard let item = contents.items.first else {
                    if !first { requests.post(.release) }
                    continue
                }
                // Nothing the desktop can take: the old content must not stay on the desktop either.
                let plan = self.plan(types: item.types, of: item, in: contents)
                requests.post(plan.targets.isEmpty ? .release : .own(plan, onlyIfUnowned: first))
                if !plan.targets.isEmpty { offered = plan.targetNames }
            }
        }
    }

    /// The import `contents` is the pasteboard's while its desktop owner left: the selection is
    /// taken (only if still ownerless) for what the import kept (its captured text; the owner's
    /// promises left with it), served from the daemon. No pasteboard change: the content is the same.
    private func offerKept(_ contents: PasteboardContents, requests: ExportRequests) async {
        guard let item = contents.items.first, let kept = await echo.keptTypes(of: contents.changeCount) else { return }
        let types = item.types.filter(kept.contains)
        guard !types.isEmpty else { return }
        let plan = plan(types: types, of: item, in: contents)
        if !plan.targets.isEmpty { requests.post(.own(plan, onlyIfUnowned: true)) }
    }

    private func plan(types: [TypeIdentifier], of item: PasteboardItem, in contents: PasteboardContents) -> DesktopExportPlan {
        DesktopExportPlan(
            types: types, isSensitive: item.isSensitive, changeCount: contents.changeCount, mapping: mapping,
            reservedNames: DesktopTypeMapping.plumbingTargets.union(SelectionOwner.plumbingTargets))
    }
}

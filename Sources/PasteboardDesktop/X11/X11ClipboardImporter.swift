public import Pasteboard
public import PasteboardDesktopTypes
public import PasteboardTypes
public import PasteboardX11

/// The first direction of the X11 bridge: a desktop application's copy becomes a pasteboard item.
///
/// A watch (PasteboardX11's `X11SelectionWatch`, on its own thread) hears of each new owner of
/// the selection through XFIXES (no polling), reads its TARGETS, maps them with `DesktopTypeMapping` and captures the plain text at once
/// (`DesktopImportPlan`, within `captureBudget`). The async side then puts ONE item on the
/// pasteboard: the captured text as eager bytes (so it still pastes after the application
/// quits) and every other representation, in the owner's order, as a promise fetched from the
/// owner only when a destination loads it (`X11TargetFetch`). The promises are served by the
/// pasteboard connection until the next owner change replaces the item.
///
/// Owner changes to the bridge's own windows (`ownWindows`) are its own echo and ignored; so
/// is a selection lost without a new owner (the item stays; its promises then fail with
/// `DesktopImportError.ownerGone`, which the daemon reports as `source-unavailable`).
public struct X11ClipboardImporter: DesktopLane {
    /// What the importer did, for a log line or a test to wait on.
    public enum Event: Sendable, Equatable {
        /// Watching the selection for owner changes.
        case watching
        /// A new owner's offer is on the pasteboard: its types, and which were captured.
        case imported(changeCount: Int, types: [TypeIdentifier], captured: [TypeIdentifier])
        /// An owner change was not imported (it offered nothing we map, it vanished at once, ...).
        case skipped(String)
        /// What the desktop held when the importer started is on the pasteboard (imported, or
        /// there was nothing to import): the daemon holds the first reads back until then.
        case settled
    }

    public var display: X11Display
    public var selection: DesktopSelection
    /// The type mapping, following the daemon's registry (shared by the bridge's lanes).
    public let mappings: FollowedTypeMapping
    /// The mapping as it is now.
    public var mapping: DesktopTypeMapping { mappings.current }
    public var ownWindows: DesktopOwnWindows
    /// The record of the bridge's own writes, shared with the exporter of the same selection.
    public var echo: BridgeEcho
    /// The content imported last, so a clipboard manager re-taking it is not a new copy.
    public var recent: RecentContent
    /// Shared with the clipboard manager (`X11ClipboardManager`) on the same connection: the
    /// bytes an owner hands over at exit fill this importer's promises of its copy.
    public var handover: ClipboardHandover
    /// Told when the selection's owner leaves (shared with the exporter of the same
    /// selection, which then offers what the pasteboard kept of the owner's copy).
    public var vacancy = SelectionVacancy()
    /// The most bytes of text captured at once; larger text stays lazy.
    public var captureBudget = DesktopImportPlan.defaultCaptureBudget
    /// The bound of reading one owner's offer as a whole (its TARGETS and captured text);
    /// each answer of the owner has `display.ownerTimeout` besides.
    public var importTimeout: Duration = .seconds(10)
    /// How long the selection's owner must stay the same before its offer is read (nil: read at
    /// once). The bridge sets it for the primary selection, which changes with every mouse
    /// selection (`DesktopBridge.Configuration.primaryDebounce`).
    public var debounce: Duration?

    public init(
        display: X11Display, selection: DesktopSelection = .clipboard, mappings: FollowedTypeMapping,
        ownWindows: DesktopOwnWindows = DesktopOwnWindows(), echo: BridgeEcho = BridgeEcho(), recent: RecentContent = RecentContent(),
        handover: ClipboardHandover = ClipboardHandover()
    ) {
        self.display = display
        self.selection = selection
        self.mappings = mappings
        self.ownWindows = ownWindows
        self.echo = echo
        self.recent = recent
        self.handover = handover
    }

    /// Imports every new owner of the selection onto its pasteboard through `connection`, until
    /// the task is cancelled (returns) or the X connection fails (throws).
    public func run(on connection: PasteboardConnection, onEvent: @escaping @Sendable (Event) -> Void = { _ in }) async throws {
        // Only the newest offer matters: one that arrives while the last is being put on the
        // pasteboard replaces any that waits.
        let news = OwnerNews()
        let (mappings, name) = (mappings, selection.x11Name)
        // The X side is PasteboardX11's; what is captured at once, and what an offer becomes, is ours.
        let watch = X11SelectionWatch(
            display: display, selection: name, windows: ownWindows, quietPeriod: debounce, offerTimeout: importTimeout,
            captureBudget: captureBudget
        ) { offered in
            let plan = DesktopImportPlan(offer: mappings.current.representations(forOffered: offered))
            return plan.entries.isEmpty ? nil : plan.captured.map(\.target)
        }
        let board = Pasteboard(name: selection.pasteboardName, connection: connection)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do throws(X11Error) {
                        try await watch.run { event in
                            switch event {
                            case .offer(let offered):
                                if let offer = OwnerOffer(offered, mapping: mappings.current) {
                                    news.post(offer)
                                } else {
                                    onEvent(.skipped("the owner of \(name) offers nothing we map"))
                                }
                            case .ownerLeft: news.postOwnerLeft()
                            case .settled: news.postSettled()
                            case .watching: onEvent(.watching)
                            case .skipped(let reason): onEvent(.skipped(reason))
                            }
                        }
                        news.finish()
                    } catch {
                        news.finish(throwing: DesktopImportError.displayFailed(selection: name, reason: error.description))
                    }
                }
                // However this ends, the watch (and its thread) ends with it.
                defer { group.cancelAll() }
                try await news.forEach { item in
                    switch item {
                    case .offer(let offer):
                        let provider = self.item(for: offer)
                        _ = try await DesktopImportCommit.put(
                            provider, captured: offer.captured, on: board, echo: echo, recent: recent,
                            record: { handover.recordImport(owner: offer.owner, changeCount: $0) }, onEvent: onEvent)
                    case .settled:
                        onEvent(.settled)
                    case .ownerLeft:
                        // The latest import, ours or the clipboard manager's: an application that
                        // copies and quits at once hands its copy over before we read its offer.
                        vacancy.ownerLeft(afterImport: handover.ownerLeft())
                    }
                }
            }
        } catch is CancellationError {
            return
        }
    }

    /// The item for `offer`: captured bytes eager, the rest promised, in the owner's order. A
    /// promise serves the bytes the clipboard manager saved from the owner at its exit when it
    /// has them (`handover`), and fetches from the owner otherwise.
    func item(for offer: OwnerOffer) -> ItemProvider {
        var provider = ItemProvider(sensitive: offer.isSensitive)
        let (handover, owner, selectionName) = (handover, offer.owner, selection.x11Name)
        for entry in offer.plan.entries {
            let representation = entry.representation
            if let bytes = offer.captured[representation.type] {
                provider.registerData(bytes, for: representation.type)
            } else {
                let fetch = X11TargetFetch(display: display, selection: selection.x11Name, representation: representation, owner: offer.owner)
                provider.registerDataRepresentation(for: representation.type) { writer in
                    switch handover.lookup(owner: owner, target: representation.target) {
                    case .saved(let bytes):
                        let converted = representation.conversion.apply(to: bytes)
                        try await writer.declareSize(converted.count)
                        try await writer.write(contentsOf: converted)
                    case .notHandedOver where writer.isCapture:
                        throw DesktopImportError.notHandedOver(selection: selectionName, target: representation.target)
                    case .notHandedOver, .none:
                        try await fetch.stream(into: writer)
                    }
                }
            }
        }
        return provider
    }
}

/// A new owner's offer, as the watch read it, mapped.
struct OwnerOffer: Sendable {
    let owner: WindowID
    let plan: DesktopImportPlan
    /// The captured representations' bytes (converted), by type.
    let captured: [TypeIdentifier: [UInt8]]

    /// Whether the item is a secret: by its names, or by a captured KDE hint valued `secret`.
    var isSensitive: Bool { plan.isSensitive(captured: captured) }
}

extension OwnerOffer {
    /// The watch's offer under `mapping`, its captured bytes converted; nil when nothing maps.
    init?(_ offer: X11SelectionWatch.Offer, mapping: DesktopTypeMapping) {
        let plan = DesktopImportPlan(offer: mapping.representations(forOffered: offer.targets))
        guard !plan.entries.isEmpty else { return nil }
        var captured: [TypeIdentifier: [UInt8]] = [:]
        for representation in plan.captured {
            if let bytes = offer.captured[representation.target] { captured[representation.type] = representation.conversion.apply(to: bytes) }
        }
        self.init(owner: offer.owner, plan: plan, captured: captured)
    }
}

extension X11ClipboardImporter.Event: ImporterEvent {}

public import Pasteboard
public import PasteboardDesktopTypes
public import PasteboardTypes
import PasteboardWayland

/// The first direction of the Wayland bridge: a desktop application's copy becomes a pasteboard
/// item.
///
/// A data-control connection of its own (see `WaylandClipboardExporter` for why each direction
/// has one) hears of each new selection through the device's `selection` /
/// `primary_selection` events (no polling). The offer's MIME types are mapped with
/// `DesktopTypeMapping` in the owner's order; plain text (within `captureBudget`) and KDE's
/// password-manager hint are read at once, so the copy survives the application that made it;
/// everything else becomes a promise read from the owner only when a destination loads it
/// (`WaylandOfferFetch`: streamed, bounded memory, bounded wait). ONE item goes on the
/// pasteboard, written through `DesktopImportCommit` (a repeat of the last content is skipped,
/// the write bracketed with `echo`).
///
/// Not imported: offers of the bridge's own sources (`WaylandBridgeMarker`), an offer replaced
/// before it was read, and, with `debounce`, one replaced within that time. A selection cleared
/// (its owner left without a successor) leaves the pasteboard as it is: the captured text
/// still pastes, the promises fail with `DesktopImportError.ownerGone`; `vacancy` hears of it,
/// so the exporter offers the captured text to the desktop again.
///
/// The promises read through this importer's connection (a Wayland offer belongs to the
/// connection that received it), so they work while `run` runs; after it they fail clearly.
public struct WaylandClipboardImporter: DesktopLane {
    /// What the importer did, for a log line or a test to wait on.
    public enum Event: Sendable, Equatable {
        /// Watching the selection for new offers.
        case watching
        /// A new offer is on the pasteboard: its types, and which were captured.
        case imported(changeCount: Int, types: [TypeIdentifier], captured: [TypeIdentifier])
        /// An offer of the bridge's own source (the exporter's): never imported.
        case ownOffer
        /// An offer was not imported (it offered nothing we map, its owner vanished, a newer
        /// one replaced it, ...).
        case skipped(String)
        /// What the desktop held when the importer started is on the pasteboard (imported, or
        /// there was nothing to import): the daemon holds the first reads back until then.
        case settled
    }

    public var display: WaylandDisplay
    public var selection: DesktopSelection
    /// The type mapping, following the daemon's registry (shared by the bridge's lanes).
    public let mappings: FollowedTypeMapping
    /// The mapping as it is now.
    public var mapping: DesktopTypeMapping { mappings.current }
    /// The record of the bridge's own writes, shared with the exporter of the same selection.
    public var echo: BridgeEcho
    /// Told when the selection's owner leaves without a successor (shared with the exporter of
    /// the same selection, which then offers what the pasteboard kept of the owner's copy).
    public var vacancy = SelectionVacancy()
    /// The content imported last, so a clipboard manager re-taking it is not a new copy.
    public var recent: RecentContent
    /// The most bytes of text captured at once; larger text stays lazy.
    public var captureBudget = DesktopImportPlan.defaultCaptureBudget
    /// How long an offer must stay the newest before it is imported (the primary selection
    /// changes with every mouse movement); nil imports each at once.
    public var debounce: Duration?
    /// How often the compositor is asked to answer a sync (within `ownerTimeout`): one that
    /// stopped answering without closing the connection ends the lane, and the bridge
    /// connects again, instead of "bridging" a clipboard it no longer hears of.
    public var livenessInterval: Duration = .seconds(30)

    public init(
        display: WaylandDisplay, selection: DesktopSelection = .clipboard, mappings: FollowedTypeMapping,
        echo: BridgeEcho = BridgeEcho(), recent: RecentContent = RecentContent(), debounce: Duration? = nil
    ) {
        self.display = display
        self.selection = selection
        self.mappings = mappings
        self.echo = echo
        self.recent = recent
        self.debounce = debounce
    }

    /// The bounded wait on the compositor and on owners (`display.ownerTimeout`).
    public var ownerTimeout: Duration {
        get { display.ownerTimeout }
        set { display.ownerTimeout = newValue }
    }

    /// Imports every new offer of the selection onto its pasteboard through `connection`, until
    /// the task is cancelled (returns) or the Wayland connection fails (throws
    /// `DesktopImportError.displayFailed` with the compositor's reason).
    public func run(on connection: PasteboardConnection, onEvent: @escaping @Sendable (Event) -> Void = { _ in }) async throws {
        let kind = selection.waylandKind
        let reader = try await display.connect(for: selection)
        defer { reader.close() }
        // Subscribed before the current offer is looked at, so none falls between the two.
        let changes = reader.changes()
        let board = Pasteboard(name: selection.pasteboardName, connection: connection)
        onEvent(.watching)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await watchLiveness(of: reader) }
                group.addTask { try await follow(changes, of: kind, reader: reader, board: board, onEvent: onEvent) }
                // The first to end (the changes ended or were cancelled, or the compositor went
                // quiet) ends the other.
                defer { group.cancelAll() }
                try await group.next()
            }
        } catch is CancellationError {
            return
        }
        if Task.isCancelled { return }
        throw WaylandDisplay.connectionEnded(reader, selection: selection)
    }

    /// Asks the compositor every `livenessInterval` to answer a sync; throws when it does not
    /// within `ownerTimeout`.
    private func watchLiveness(of reader: PasteboardWayland.SelectionReader) async throws {
        while true {
            try await Task.sleep(for: livenessInterval)
            do {
                try await reader.confirmAnswering(within: ownerTimeout)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                // Thrown, it cancels the changes' task, which closes the connection.
                throw DesktopImportError.displayFailed(selection: selection.waylandKind.waylandName, reason: "\(error)")
            }
        }
    }

    /// Imports the current offer and each new one until `changes` ends.
    private func follow(
        _ changes: AsyncStream<SelectionChange>, of kind: SelectionKind, reader: PasteboardWayland.SelectionReader, board: Pasteboard,
        onEvent: @escaping @Sendable (Event) -> Void
    ) async throws {
        var lastSerial: UInt64 = 0
        // The change count of the latest import: what the selection's owner leaving concerns.
        var lastImport: Int?
        do {
            try await withTaskCancellationHandler {
                // An offer from before we started is a copy too.
                if let current = reader.offer(kind) {
                    lastSerial = current.serial
                    lastImport = try await consider(current, reader: reader, board: board, onEvent: onEvent) ?? lastImport
                }
                onEvent(.settled)
                for await change in changes where change.kind == kind {
                    guard let offer = change.offer else {
                        // The owner left without a successor (the exporter offers what we kept).
                        vacancy.ownerLeft(afterImport: lastImport)
                        continue
                    }
                    guard offer.serial > lastSerial else { continue }
                    lastSerial = offer.serial
                    lastImport = try await consider(offer, reader: reader, board: board, onEvent: onEvent) ?? lastImport
                }
            } onCancel: {
                reader.close()
            }
        } catch is CancellationError {
            return
        }
    }

    /// Imports `offer` unless it is our own, was replaced, or repeats the last import; returns
    /// the change count of the import it made.
    private func consider(_ offer: SelectionOffer, reader: SelectionReader, board: Pasteboard, onEvent: @Sendable (Event) -> Void) async throws -> Int? {
        if WaylandBridgeMarker.isOwnOffer(offer.mimeTypes) {
            onEvent(.ownOffer)
            return nil
        }
        // Only the newest offer matters; with a debounce, only one that stayed the newest.
        guard try await OfferDebounce(quiet: debounce).settles(offer.serial, current: { reader.offer(offer.kind)?.serial }) else {
            onEvent(.skipped("a newer selection replaced it"))
            return nil
        }
        guard !offer.isOverflowing else {
            onEvent(.skipped("the selection offers more than \(SelectionOffer.maximumMIMETypes) MIME types: not imported"))
            return nil
        }
        let plan = DesktopImportPlan(offer: mapping.representations(forOffered: offer.mimeTypes))
        guard !plan.entries.isEmpty else {
            let shown = offer.mimeTypes.prefix(8).joined(separator: ", ") + (offer.mimeTypes.count > 8 ? ", … (\(offer.mimeTypes.count) in all)" : "")
            onEvent(.skipped("the selection offers nothing we map (\(shown))"))
            return nil
        }
        let captured: [TypeIdentifier: [UInt8]]
        do {
            captured = try await capture(plan, of: offer, reader: reader)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            onEvent(.skipped("cannot read the selection: \(error)"))
            return nil
        }
        let provider = item(for: plan, of: offer, captured: captured, reader: reader)
        return try await DesktopImportCommit.put(provider, captured: captured, on: board, echo: echo, recent: recent, onEvent: onEvent)
    }

    /// The plan's captured representations read now, each within `captureBudget` (one over it
    /// stays a promise; the owner's silence is bounded by `ownerTimeout`).
    private func capture(_ plan: DesktopImportPlan, of offer: SelectionOffer, reader: SelectionReader) async throws -> [TypeIdentifier: [UInt8]] {
        var captured: [TypeIdentifier: [UInt8]] = [:]
        let budget = captureBudget
        for representation in plan.captured {
            var bytes: [UInt8] = []
            do {
                try await reader.read(representation.target, from: offer, timeout: ownerTimeout) { chunk in
                    bytes += chunk
                    if bytes.count > budget { throw OverBudget() }
                }
            } catch is OverBudget {
                continue  // stays a promise
            }
            captured[representation.type] = representation.conversion.apply(to: bytes)
        }
        return captured
    }

    private struct OverBudget: Error {}

    /// The item for `offer`: captured bytes eager, the rest promised, in the owner's order.
    func item(for plan: DesktopImportPlan, of offer: SelectionOffer, captured: [TypeIdentifier: [UInt8]], reader: SelectionReader) -> ItemProvider {
        var provider = ItemProvider(sensitive: plan.isSensitive(captured: captured))
        for entry in plan.entries {
            let representation = entry.representation
            if let bytes = captured[representation.type] {
                provider.registerData(bytes, for: representation.type)
            } else {
                let fetch = WaylandOfferFetch(reader: reader, offer: offer, representation: representation, timeout: ownerTimeout)
                provider.registerDataRepresentation(for: representation.type) { writer in
                    try await fetch.stream(into: writer)
                }
            }
        }
        return provider
    }
}

extension WaylandClipboardImporter.Event: ImporterEvent {}

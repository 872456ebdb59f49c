public import Pasteboard
public import PasteboardDesktopTypes
import PasteboardTypes
import PasteboardWayland
import Synchronization

/// The second direction of the Wayland bridge: a pasteboard change becomes the desktop
/// selection, served lazily from the daemon.
///
/// It watches its pasteboard with `changes()`. At start, an item on the pasteboard is offered
/// when the desktop selection is empty (a desktop owner's offer is the importer's business).
/// Every later change not written by the bridge itself (`echo.isOwnChange`) takes the
/// selection with a `SelectionSource` offering the first item's representations
/// (`WaylandExportOffer`: their MIME types in order, the plain-text aliases, the secret hint,
/// the marker). Each reader's request is served at that moment by a streaming load of that
/// representation from the daemon (a lazy source produces its data only now), chunk by chunk
/// under the daemon's flow control into the reader's pipe with its backpressure: memory stays at
/// a chunk or two whatever the size. A change that empties the pasteboard lets go of the
/// selection (and clears it when another client holds it: `pb clear` and an expiring copy
/// clear the desktop clipboard too). When another client takes the selection the compositor
/// cancels our source: the exporter reports `released` and waits for the next change. When
/// that client leaves without a successor after its copy was imported (`vacancy`), a source
/// offering what the pasteboard kept of the copy (its captured text) takes the selection again,
/// as a clipboard manager does, with no pasteboard change.
///
/// The importer and the exporter each have their own data-control connection (one device per
/// seat on each), rather than sharing one: each direction then starts, fails and stops on its
/// own (a protocol error or a compositor that drops one connection ends only that direction,
/// and the bridge restarts it), and neither holds the other's lifetime (the importer's promises
/// read through its connection, the exporter's sources live on its own). The cost is one more
/// socket and each selection event delivered twice; compositors give any number of clients a
/// device per seat (wl-paste --watch and clipboard managers each have one). Our own source
/// still comes back to the importer as a new selection on its connection, which is why the
/// offers carry `WaylandBridgeMarker`.
public struct WaylandClipboardExporter: DesktopLane {
    /// What the exporter did, for a log line or a test to wait on.
    public enum Event: Sendable, Equatable {
        /// Watching the pasteboard for changes.
        case watching
        /// Our source owns the selection for this change, offering these MIME types.
        case owning(changeCount: Int, mimeTypes: [String])
        /// A change the importer wrote: the desktop owner it came from keeps the selection.
        case ownChange(changeCount: Int)
        /// The pasteboard was emptied: our source let go, or the selection was cleared.
        case cleared(changeCount: Int)
        /// Another client took the selection (the compositor cancelled our source).
        case released(changeCount: Int)
        /// A reader's request was served: the MIME type and the bytes it took.
        case served(mimeType: String, bytes: Int)
        /// Taking the selection or serving a request failed.
        case failed(String)
    }

    public var display: WaylandDisplay
    public var selection: DesktopSelection
    /// The type mapping, following the daemon's registry (shared by the bridge's lanes).
    public let mappings: FollowedTypeMapping
    /// The mapping as it is now.
    public var mapping: DesktopTypeMapping { mappings.current }
    /// The record of the bridge's own writes, shared with the importer of the same selection.
    public var echo: BridgeEcho
    /// Where the importer of the same selection tells of the owner leaving after an import.
    public var vacancy = SelectionVacancy()
    /// How long one write to a reader waits for it to take anything before that request is
    /// abandoned (a reader that stopped reading).
    public var stallTimeout: Duration = .seconds(30)

    public init(display: WaylandDisplay, selection: DesktopSelection = .clipboard, mappings: FollowedTypeMapping, echo: BridgeEcho = BridgeEcho()) {
        self.display = display
        self.selection = selection
        self.mappings = mappings
        self.echo = echo
    }

    /// Mirrors the pasteboard onto the desktop selection through `connection` until the task is
    /// cancelled (returns), or the Wayland connection (`DesktopImportError.displayFailed` with
    /// the compositor's reason) or the daemon's watch fails (throws).
    public func run(on connection: PasteboardConnection, onEvent: @escaping @Sendable (Event) -> Void = { _ in }) async throws {
        let kind = selection.waylandKind
        let reader = try await display.connect(for: selection)
        let ownership = Ownership()
        defer {
            ownership.replace(with: nil)?.destroy(cancellingTransfers: true)
            reader.close()
        }
        let board = Pasteboard(name: selection.pasteboardName, connection: connection)
        let selection = selection
        try await withThrowingDiscardingTaskGroup { group in
            // The compositor going away ends the exporter at once, not at the next change.
            let connectionEvents = reader.changes()
            group.addTask {
                for await _ in connectionEvents {}
                if !Task.isCancelled { throw WaylandDisplay.connectionEnded(reader, selection: selection) }
            }
            var isFirst = true
            var current: PasteboardContents?
            var follower = VacancyFollower()
            // The desktop offer an import came from, as this connection saw it then: the owner
            // leaving is acted on only while the selection is still that offer's or empty.
            var importedOffer: UInt64?
            /// Offers what import `contents` kept, if the selection is still ownerless.
            func offerKept(_ contents: PasteboardContents) async {
                guard let item = contents.items.first, let kept = await echo.keptTypes(of: contents.changeCount) else { return }
                let types = item.types.filter(kept.contains)
                let seen = reader.offer(kind)
                guard !types.isEmpty, ownership.isEmpty, seen == nil || seen?.serial == importedOffer else { return }
                do {
                    let source = try own(contents, types: types, reader: reader, board: board)
                    ownership.replace(with: source)?.destroy()
                    onEvent(.owning(changeCount: contents.changeCount, mimeTypes: source.mimeTypes))
                    group.addTask { await follow(source, changeCount: contents.changeCount, ownership: ownership, onEvent: onEvent) }
                } catch {
                    onEvent(.failed("cannot take \(kind.waylandName) again for change \(contents.changeCount): \(error)"))
                }
            }
            // The watch answers with the current contents first, then each change.
            for try await input in ExporterInput.stream(board: board, vacancy: vacancy, mappings: mappings) {
                let contents: PasteboardContents
                switch input {
                case .ownerLeft(let changeCount):
                    if follower.ownerLeft(afterImport: changeCount, current: current?.changeCount) != nil, let current { await offerKept(current) }
                    continue
                case .mappingChanged:
                    // Declared types have new MIME types: a selection still ours is offered again under them.
                    guard let current, let item = current.items.first, let ours = ownership.source,
                          !(await echo.isOwnChange(current.changeCount)),
                          WaylandExportOffer(types: item.types, sensitive: item.isSensitive, mapping: mapping).mimeTypes != ours.mimeTypes
                    else { continue }
                    contents = current
                case .changed(let changed):
                    contents = changed
                    current = changed
                }
                if isFirst {
                    isFirst = false
                    onEvent(.watching)
                    // A desktop owner from before we started is the importer's to bring in.
                    guard !contents.items.isEmpty, reader.offer(kind) == nil else { continue }
                } else if await echo.isOwnChange(contents.changeCount) {
                    importedOffer = reader.offer(kind)?.serial
                    onEvent(.ownChange(changeCount: contents.changeCount))
                    if follower.reached(contents.changeCount) { await offerKept(contents) }
                    continue
                }
                if contents.items.isEmpty {
                    let ours = ownership.replace(with: nil)
                    ours?.destroy()
                    if ours == nil, reader.offer(kind) != nil { try? reader.clearSelection(kind) }
                    onEvent(.cleared(changeCount: contents.changeCount))
                    continue
                }
                do {
                    let source = try own(contents, reader: reader, board: board)
                    ownership.replace(with: source)?.destroy()
                    onEvent(.owning(changeCount: contents.changeCount, mimeTypes: source.mimeTypes))
                    group.addTask { await follow(source, changeCount: contents.changeCount, ownership: ownership, onEvent: onEvent) }
                } catch {
                    onEvent(.failed("cannot take \(kind.waylandName) for change \(contents.changeCount): \(error)"))
                }
            }
            group.cancelAll()
        }
    }

    /// A new source owning the selection for `contents`' first item.
    private func own(_ contents: PasteboardContents, types: [TypeIdentifier]? = nil, reader: SelectionReader, board: Pasteboard) throws(WaylandError) -> SelectionSource {
        let item = contents.items[0]
        let offer = WaylandExportOffer(types: types ?? item.types, sensitive: item.isSensitive, mapping: mapping)
        let changeCount = contents.changeCount
        return try SelectionSource(offering: offer.mimeTypes, as: selection.waylandKind, on: reader, stallTimeout: stallTimeout) { transfer in
            try await Self.serve(transfer, offer: offer, changeCount: changeCount, board: board)
        }
    }

    /// Serves one reader's request: the representation loaded from the daemon now, streamed.
    static func serve(_ transfer: SourceTransfer, offer: WaylandExportOffer, changeCount: Int, board: Pasteboard) async throws {
        switch offer.content(for: transfer.mimeType) {
        case .representation(let type):
            try await board.load(item: 0, accepting: [type], header: { loaded in
                // The pasteboard moved on since the source was made: its bytes are not this copy's.
                guard loaded.changeCount == changeCount else { throw StaleSource(changeCount: changeCount, now: loaded.changeCount) }
            }, chunk: { chunk in
                // Copied as one block (an element-wise copy of a ByteChunk costs seconds per 20 MiB).
                try await transfer.write(chunk.withUnsafeBytes { Array($0) })
            })
        case .secretHint:
            try await transfer.write(WaylandExportOffer.secretHintBody)
        case .marker, nil:
            return
        }
    }

    /// Reports what happens to `source` until it ends; a cancel of the current source is
    /// another client taking the selection.
    private func follow(_ source: SelectionSource, changeCount: Int, ownership: Ownership, onEvent: @Sendable (Event) -> Void) async {
        for await event in source.events() {
            switch event {
            case .cancelled:
                if ownership.release(source) { onEvent(.released(changeCount: changeCount)) }
            case .sendRefused(let mimeType):
                onEvent(.failed("a reader asked for \(mimeType), which change \(changeCount) does not offer"))
            case .transferEnded(let report):
                switch report.outcome {
                case .completed, .readerClosed: onEvent(.served(mimeType: report.mimeType, bytes: report.bytesWritten))
                case .failed(let error): onEvent(.failed("serving \(report.mimeType) of change \(changeCount): \(error)"))
                }
            }
        }
    }

    /// The pasteboard moved on between taking the selection and a reader's request.
    struct StaleSource: Error, CustomStringConvertible {
        let changeCount: Int
        let now: Int
        var description: String { "the pasteboard changed (\(changeCount) -> \(now)) since the selection was taken" }
    }

    /// Which of our sources owns the selection now.
    final class Ownership: Sendable {
        private let current = Mutex<SelectionSource?>(nil)

        /// Whether none of our sources owns the selection.
        var isEmpty: Bool { current.withLock { $0 == nil } }

        /// Our source that owns the selection, if one does.
        var source: SelectionSource? { current.withLock { $0 } }

        /// Makes `source` current; returns the one it replaces.
        func replace(with source: SelectionSource?) -> SelectionSource? {
            current.withLock { current in
                defer { current = source }
                return current
            }
        }

        /// Forgets `source` if it is current (the compositor cancelled it); false when we had
        /// replaced it already (our own newer source cancelled it).
        func release(_ source: SelectionSource) -> Bool {
            current.withLock { current in
                guard current === source else { return false }
                current = nil
                return true
            }
        }
    }
}

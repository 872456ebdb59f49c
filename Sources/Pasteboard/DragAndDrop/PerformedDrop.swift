internal import NIOCore
package import PasteboardProtocol
import PasteboardTypes

/// A drag session this destination dropped: load its items (only this destination may), then
/// `finish`, which tells the source the performed operation and whether the drop succeeded.
/// If the destination goes away without finishing, the source hears `failed`.
public struct PerformedDrop: Sendable {
    /// The dropped session's metadata.
    package let info: SessionInfo
    /// The connection that dropped it.
    public let connection: PasteboardConnection
    private var loader: RepresentationLoader { RepresentationLoader(connection: connection, target: .session(info.id)) }

    init(info: SessionInfo, connection: PasteboardConnection) {
        self.info = info
        self.connection = connection
    }

    /// The session's id.
    public var id: Int { info.id }
    /// The operation being performed (a `.move` proposal is a copy when the source does not allow move).
    public var operation: DragOperation { info.operation.map(DragOperation.init) ?? .copy }
    /// The source's local context, when this destination belongs to the source's application.
    public var localContext: String? { info.localContext }
    /// The source's application.
    public var sourceApp: String { info.app }
    /// True when the source asked for the session to be shown on the desktop.
    public var isShownOnDesktop: Bool { info.desktop ?? false }
    /// The items, in drag order.
    public var items: [PasteboardItem] { DropSession(info: info, connection: connection).items }

    /// Streams item `item`'s representation best matching `accepting`; see `Pasteboard.load(item:accepting:openInPlace:progress:header:chunk:)`.
    /// Callable from any isolation; the closures run on the caller's executor, as there.
    @discardableResult
    nonisolated(nonsending) public func load(
        item: Int, accepting: [TypeIdentifier], progress: (LoadProgress) -> Void = { _ in },
        header: nonisolated(nonsending) (LoadedRepresentation) async throws -> Void = { _ in },
        chunk: nonisolated(nonsending) (ByteChunk) async throws -> Void
    ) async throws -> LoadedRepresentation {
        try await loader.loadChunks(item: item, accepting: accepting, progress: progress, header: header, chunk: chunk)
    }

    /// Loads item `item`'s best representation for `accepting` into memory. Callable from any
    /// isolation: `progress` runs on the caller's executor, the bytes are received off it.
    nonisolated(nonsending) public func loadData(
        item: Int, accepting: [TypeIdentifier], progress: (LoadProgress) -> Void = { _ in }
    ) async throws -> (representation: LoadedRepresentation, bytes: [UInt8]) {
        try await loader.relayedData(item: item, accepting: accepting, progress: progress)
    }

    /// Loads item `item`'s best representation for `accepting` into a temporary file in
    /// `directory`; a failed or cancelled load leaves no file.
    nonisolated(nonsending) public func loadFile(
        item: Int, accepting: [TypeIdentifier], directory: String? = nil, progress: (LoadProgress) -> Void = { _ in }
    ) async throws -> LoadedFile {
        try await loader.relayedFile(item: item, accepting: accepting, directory: directory, progress: progress)
    }

    /// Loads item `item` as a `T` (see `Transferable`). Callable from any isolation, as `loadData`.
    nonisolated(nonsending) public func load<T: Transferable>(_ type: T.Type, item: Int, progress: (LoadProgress) -> Void = { _ in }) async throws -> T {
        try await loadWithRepresentation(type, item: item, progress: progress).value
    }

    /// Loads item `item` as a `T` and says which representation it was made from; see
    /// `Pasteboard.loadWithRepresentation(_:item:progress:)`.
    nonisolated(nonsending) public func loadWithRepresentation<T: Transferable>(
        _ type: T.Type, item: Int, progress: (LoadProgress) -> Void = { _ in }
    ) async throws -> (value: T, representation: LoadedRepresentation) {
        try await loader.relayed(type, item: item, progress: progress)
    }

    /// Loads every item that offers a type in `accepting`, in drag order, each into a temporary
    /// file in `directory`; `progress` hears each item's progress and the total. Items offering
    /// none of the types are skipped (their index is absent from the result). If one load fails,
    /// the files already loaded are deleted and the error is thrown.
    nonisolated(nonsending) public func loadFiles(
        accepting: [TypeIdentifier], directory: String? = nil, progress: (DropProgress) -> Void = { _ in }
    ) async throws -> [(item: Int, file: LoadedFile)] {
        let wanted = items.filter { $0.representation(accepting: accepting) != nil }
        var tracker = DropProgress.Tracker(items: wanted, accepting: accepting)
        var loaded: [(item: Int, file: LoadedFile)] = []
        for item in wanted {
            let file = try await loadFile(item: item.index, accepting: accepting, directory: directory) { itemProgress in
                progress(tracker.update(item: item.index, itemProgress))
            }
            loaded.append((item.index, file))
        }
        return loaded
    }

    /// Ends the drop: on success the source hears `finished(operation)` (and deletes its originals
    /// on move), else `failed` with `message`. `localContext` reaches a source of the same application.
    /// `performed` `.copy` finishes a move as a copy, for a destination that kept the originals
    /// after all (the source then keeps them too); a copy cannot finish as a move.
    public func finish(success: Bool = true, message: String? = nil, localContext: String? = nil, performed: DragOperation? = nil) async throws {
        let (id, frames) = connection.openRequest()
        defer { connection.closeRequest(id) }
        try await connection.send(
            .finish(FinishRequest(session: info.id, success: success, message: message, localContext: localContext, operation: performed?.wire)), on: id
        )
        for try await frame in frames where frame.kind == .message {
            if case .error(let error) = try frame.decodeMessage() { throw PasteboardError.daemon(error) }
            return
        }
        throw PasteboardError.connectionLost("the daemon closed the connection before answering 'finish'")
    }
}

/// How far a drop's loads have come: the current item's progress and the total over all items.
public struct DropProgress: Sendable, Equatable {
    /// The index of the item loading now.
    public var item: Int
    /// That item's progress.
    public var itemProgress: LoadProgress
    /// Bytes of all loaded items so far, over their total (unknown while some size is unknown).
    public var overall: LoadProgress

    /// Adds up item progress into the overall figure, for apps that load items one by one.
    public struct Tracker: Sendable {
        private var sizes: [Int: Int?]
        private var completed: [Int: Int] = [:]

        /// Tracks loads of `items`, each of its best representation for `accepting`.
        public init(items: [PasteboardItem], accepting: [TypeIdentifier]) {
            sizes = Dictionary(uniqueKeysWithValues: items.map { ($0.index, $0.representation(accepting: accepting)?.size) })
        }

        /// Records item `item`'s progress; returns it with the overall figure.
        public mutating func update(item: Int, _ progress: LoadProgress) -> DropProgress {
            completed[item] = progress.completed
            if let total = progress.total { sizes[item] = total }
            let knownSizes = sizes.values.compactMap { $0 }
            // Sizes are what sources declared (up to Int.max each): added up saturating.
            let total: Int? = knownSizes.count == sizes.count ? knownSizes.reduce(0) { $0.addingSaturating($1) } : nil
            let done = completed.values.reduce(0) { $0.addingSaturating($1) }
            return DropProgress(item: item, itemProgress: progress, overall: LoadProgress(completed: done, total: total))
        }
    }
}

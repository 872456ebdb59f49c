package import NIOCore
package import PasteboardProtocol
import PasteboardTypes

extension Pasteboard {
    private var loader: RepresentationLoader { RepresentationLoader(connection: connection, target: .pasteboard(name)) }

    /// Loads item `item`'s representation best matching `accepting` (UTIs or MIME types, most
    /// preferred first; empty for the item's first representation).
    ///
    /// `header` is called once with the daemon's choice, then `chunk` with the bytes in order;
    /// credit is returned to the daemon as each chunk is consumed, so memory stays bounded.
    /// `progress` hears the daemon's progress reports (about every 1% or 100 ms, and at the end).
    /// With `openInPlace`, a file representation the source allows to be opened in place comes
    /// as a path (`path` of the representation) and no bytes.
    /// Cancelling the task cancels the load at the daemon, which cancels the source's handler.
    ///
    /// Callable from any isolation: all three closures run on the caller's executor, since the
    /// caller asked to handle the bytes itself; a chunk is received off it and handed over, and
    /// the next is asked for only as the closure returns (that is the flow control). A
    /// `@MainActor` caller that wants the bytes off the main actor uses `loadData` or
    /// `loadFile`, or calls this from a task of its own.
    @discardableResult
    nonisolated(nonsending) public func load(
        item: Int = 0, accepting: [TypeIdentifier], openInPlace: Bool = false,
        progress: (LoadProgress) -> Void = { _ in },
        header: nonisolated(nonsending) (LoadedRepresentation) async throws -> Void = { _ in },
        chunk: nonisolated(nonsending) (ByteChunk) async throws -> Void
    ) async throws -> LoadedRepresentation {
        try await loader.loadChunks(item: item, accepting: accepting, openInPlace: openInPlace, progress: progress, header: header, chunk: chunk)
    }

    /// `load(item:accepting:openInPlace:progress:header:chunk:)` in the wire's own terms, for the
    /// package's tools that pass the received buffers on unchanged.
    @discardableResult
    nonisolated(nonsending) package func loadBuffers(
        item: Int = 0, accepting: [TypeIdentifier], openInPlace: Bool = false,
        progress: (LoadProgress) -> Void = { _ in },
        header: nonisolated(nonsending) (RepresentationHeader) async throws -> Void = { _ in },
        chunk: nonisolated(nonsending) (ByteBuffer) async throws -> Void
    ) async throws -> RepresentationHeader {
        try await loader.load(item: item, accepting: accepting, openInPlace: openInPlace, progress: progress, header: header, chunk: chunk)
    }

    /// Loads a representation whole into memory; see `load(item:accepting:openInPlace:progress:header:chunk:)`.
    ///
    /// Callable from any isolation: `progress` runs on the caller's executor (a `@MainActor`
    /// caller may update its state in it), while the bytes are received off it.
    nonisolated(nonsending) public func loadData(
        item: Int = 0, accepting: [TypeIdentifier], progress: (LoadProgress) -> Void = { _ in }
    ) async throws -> (representation: LoadedRepresentation, bytes: [UInt8]) {
        try await loader.relayedData(item: item, accepting: accepting, progress: progress)
    }

    /// Loads a representation into a new temporary file in `directory` (default `$TMPDIR`, else
    /// `/tmp`); see `RepresentationLoader.loadFile`. A failed or cancelled load leaves no file.
    /// Callable from any isolation, as `loadData`: `progress` runs on the caller's executor, the
    /// file is written off it.
    nonisolated(nonsending) public func loadFile(
        item: Int = 0, accepting: [TypeIdentifier], openInPlace: Bool = false,
        directory: String? = nil, progress: (LoadProgress) -> Void = { _ in }
    ) async throws -> LoadedFile {
        try await loader.relayedFile(item: item, accepting: accepting, openInPlace: openInPlace, directory: directory, progress: progress)
    }

    /// Loads item `item` as a `T`: asks for the types `T` imports (in its order), then converts
    /// the representation the daemon chose with `T`'s first importer it conforms to.
    /// Callable from any isolation, as `loadData`.
    nonisolated(nonsending) public func load<T: Transferable>(
        _ type: T.Type, item: Int = 0, progress: (LoadProgress) -> Void = { _ in }
    ) async throws -> T {
        try await loadWithRepresentation(type, item: item, progress: progress).value
    }

    /// Loads item `item` as a `T`, as `load(_:item:progress:)`, and says which representation
    /// it was made from: a destination that falls back (a note imported from plain text when no
    /// note was offered) can tell the fallback from the real thing.
    nonisolated(nonsending) public func loadWithRepresentation<T: Transferable>(
        _ type: T.Type, item: Int = 0, progress: (LoadProgress) -> Void = { _ in }
    ) async throws -> (value: T, representation: LoadedRepresentation) {
        try await loader.relayed(type, item: item, progress: progress)
    }
}

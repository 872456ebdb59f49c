import NIOCore
import PasteboardProtocol
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
    /// as a path in the header (`header.path`) and no bytes.
    /// Cancelling the task cancels the load at the daemon, which cancels the source's handler.
    @discardableResult
    public func load(
        item: Int = 0, accepting: [TypeIdentifier], openInPlace: Bool = false,
        progress: (LoadProgress) -> Void = { _ in },
        header: (RepresentationHeader) async throws -> Void = { _ in },
        chunk: (ByteBuffer) async throws -> Void
    ) async throws -> RepresentationHeader {
        try await loader.load(item: item, accepting: accepting, openInPlace: openInPlace, progress: progress, header: header, chunk: chunk)
    }

    /// Loads a representation whole into memory; see `load(item:accepting:openInPlace:progress:header:chunk:)`.
    ///
    /// Callable from any isolation: `progress` runs on the caller's executor (a `@MainActor`
    /// caller may update its state in it), while the bytes are received off it.
    nonisolated(nonsending) public func loadData(
        item: Int = 0, accepting: [TypeIdentifier], progress: (LoadProgress) -> Void = { _ in }
    ) async throws -> (header: RepresentationHeader, bytes: [UInt8]) {
        let loader = loader
        return try await ProgressRelay.run(reporting: progress) { report in
            try await loader.loadData(item: item, accepting: accepting, progress: report)
        }
    }

    /// Loads a representation into a new temporary file in `directory` (default `$TMPDIR`, else
    /// `/tmp`); see `RepresentationLoader.loadFile`. A failed or cancelled load leaves no file.
    /// Callable from any isolation, as `loadData`: `progress` runs on the caller's executor, the
    /// file is written off it.
    nonisolated(nonsending) public func loadFile(
        item: Int = 0, accepting: [TypeIdentifier], openInPlace: Bool = false,
        directory: String? = nil, progress: (LoadProgress) -> Void = { _ in }
    ) async throws -> LoadedFile {
        let loader = loader
        return try await ProgressRelay.run(reporting: progress) { report in
            try await loader.loadFile(item: item, accepting: accepting, openInPlace: openInPlace, directory: directory, progress: report)
        }
    }

    /// Loads item `item` as a `T`: asks for the types `T` imports (in its order), then converts
    /// the representation the daemon chose with `T`'s first importer it conforms to.
    /// Callable from any isolation, as `loadData`.
    nonisolated(nonsending) public func load<T: Transferable>(
        _ type: T.Type, item: Int = 0, progress: (LoadProgress) -> Void = { _ in }
    ) async throws -> T {
        let loader = loader
        return try await ProgressRelay.run(reporting: progress) { report in
            try await loader.load(type, item: item, progress: report)
        }
    }
}

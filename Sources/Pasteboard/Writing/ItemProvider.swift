internal import NIOCore
internal import PasteboardProtocol
import FoundationEssentials
import PasteboardTypes

/// An item a source puts on a pasteboard: its representations in fidelity order (best first),
/// each held as bytes, promised (produced by a load handler only when a destination loads it),
/// or a file the daemon reads at load time.
///
/// ```swift
/// var provider = ItemProvider(suggestedName: "sunset.png")
/// provider.registerDataRepresentation(for: .png, size: png.count) { writer in
///     try await writer.write(contentsOf: png)
/// }
/// provider.registerData(Array("Sunset".utf8), for: .utf8PlainText)
/// try await pasteboard.setItems([provider])
/// ```
public struct ItemProvider: Sendable {
    /// Produces a promised representation's bytes: write them in order with `writer`; return when done.
    /// The task is cancelled when the destination stops loading.
    public typealias LoadHandler = @Sendable (RepresentationWriter) async throws -> Void

    /// One registered representation.
    public struct Representation: Sendable {
        /// Where its bytes come from.
        public enum Content: Sendable {
            /// Bytes sent with the item.
            case data([ByteChunk])
            /// Bytes produced by `handler` at load time; `observer` hears progress and the outcome.
            case promise(handler: LoadHandler, observer: (@Sendable (SourceEvent) -> Void)?)
            /// A file the daemon streams from disk at load time.
            case file(path: String, openInPlace: Bool)
            /// Bytes sent with the item, read from a file or pipe as they are sent (under the
            /// daemon's flow control), so the sender never holds more than a frame of them.
            case stream(DataStream)
        }

        /// The representation's type.
        public var type: TypeIdentifier
        /// Its byte count, when known.
        public var size: Int?
        /// Its bytes or how to get them.
        public var content: Content
    }

    /// Representations in fidelity order, best first.
    public private(set) var representations: [Representation] = []
    /// A file name a destination may use when saving the item.
    public var suggestedName: String?
    /// Who may load the item.
    public var visibility: ItemVisibility
    /// A secret (a password): the daemon keeps it in memory only, never on disk or in logs, and
    /// watchers hear of the change as sensitive.
    public var isSensitive: Bool

    /// An item without representations yet.
    public init(suggestedName: String? = nil, visibility: ItemVisibility = .all, sensitive: Bool = false) {
        self.suggestedName = suggestedName
        self.visibility = visibility
        self.isSensitive = sensitive
    }

    /// The registered types, best first.
    public var registeredTypes: [TypeIdentifier] { representations.map(\.type) }

    /// Adds a representation whose bytes are sent with the item.
    public mutating func registerData(_ bytes: some Sequence<UInt8>, for type: TypeIdentifier) {
        registerData(chunks: [ByteChunk(bytes)], for: type)
    }

    /// Adds a representation whose bytes (as chunks, never copied into one buffer) are sent with the item.
    public mutating func registerData(chunks: [ByteChunk], for type: TypeIdentifier) {
        add(Representation(type: type, size: chunks.reduce(0) { $0 + $1.count }, content: .data(chunks)))
    }

    /// Adds a representation whose bytes are the file at `path`, sent with the item (the daemon
    /// keeps a copy, unlike `registerFileRepresentation`) but read only while they are sent, so
    /// copying a file of gigabytes costs this process a frame's worth of memory, not the file.
    /// The file is opened now (a missing one throws here); if it is shorter when read than it
    /// was then, the write fails and the pasteboard keeps what it had.
    public mutating func registerData(contentsOfFile path: String, for type: TypeIdentifier) throws {
        registerData(try DataStream(contentsOfFile: path), for: type)
    }

    /// Adds a representation whose bytes are what `descriptor` (a pipe, a file) yields from its
    /// current position to its end, read only while they are sent: for input of any size, such
    /// as a command's standard input. The item takes ownership of `descriptor` and closes it.
    public mutating func registerData(readingFrom descriptor: Int32, for type: TypeIdentifier) throws {
        registerData(try DataStream(readingFrom: descriptor), for: type)
    }

    /// Adds a representation whose bytes `stream` yields as they are sent. A stream is read once:
    /// the item can be written once.
    public mutating func registerData(_ stream: DataStream, for type: TypeIdentifier) {
        add(Representation(type: type, size: stream.size, content: .stream(stream)))
    }

    /// Adds a promised representation: `loadHandler` runs each time a destination loads it (and
    /// when the daemon captures it because this process leaves), streaming the bytes.
    /// `size` is the total when known up front; the handler may also declare it with `writer.declareSize`.
    public mutating func registerDataRepresentation(
        for type: TypeIdentifier, size: Int? = nil,
        observer: (@Sendable (SourceEvent) -> Void)? = nil,
        loadHandler: @escaping LoadHandler
    ) {
        add(Representation(type: type, size: size, content: .promise(handler: loadHandler, observer: observer)))
    }

    /// Adds a file representation: the daemon reads the file when a destination loads it. With
    /// `openInPlace`, a destination that asks gets the path instead of a copy.
    public mutating func registerFileRepresentation(for type: TypeIdentifier, at path: String, openInPlace: Bool = false) {
        add(Representation(type: type, size: nil, content: .file(path: path, openInPlace: openInPlace)))
    }

    /// Adds every representation `object` exports (see `Transferable`), each produced only when loaded.
    public mutating func register<T: Transferable>(_ object: T) {
        for exported in object.exportedRepresentations() where !registeredTypes.contains(exported.contentType) {
            switch exported.kind {
            case .data(let export):
                registerDataRepresentation(for: exported.contentType) { writer in
                    let data = try await export()
                    try await writer.declareSize(data.count)
                    try await writer.write(contentsOf: data)
                }
            case .file(let export):
                registerDataRepresentation(for: exported.contentType) { writer in
                    try await writer.writeFile(at: try await export().path)
                }
            }
        }
    }

    private mutating func add(_ representation: Representation) {
        representations.removeAll { $0.type == representation.type }
        representations.append(representation)
    }
}

/// What the source of a promised representation hears about one load of it.
public enum SourceEvent: Sendable, Equatable {
    /// The destination has received this much.
    case progress(LoadProgress)
    /// The destination received every byte.
    case delivered
    /// The destination stopped loading (cancelled, or went away); the handler's task was cancelled.
    case cancelled
    /// The load failed; the message says why.
    case failed(String)
}

/// How far a load has come.
public struct LoadProgress: Sendable, Equatable, CustomStringConvertible {
    /// Bytes delivered so far.
    public var completed: Int
    /// The total, when known.
    public var total: Int?

    /// Creates a progress value.
    public init(completed: Int, total: Int?) {
        self.completed = completed
        self.total = total
    }

    /// Completed over total (0...1), when the total is known. Clamped: the counts come from
    /// another process, and a bar drawn from a fraction outside 0...1 would trap.
    public var fractionCompleted: Double? {
        guard let total else { return nil }
        guard total > 0 else { return 1 }
        return min(1, max(0, Double(completed) / Double(total)))
    }

    public var description: String { "\(completed)/\(total.map(String.init) ?? "?")" }
}

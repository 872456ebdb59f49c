package import NIOCore
package import PasteboardProtocol
package import PasteboardTypes

/// One representation of an item as the daemon holds it.
///
/// Eager data is kept as the chunks it arrived in, so storing and serving never copies or
/// reallocates bulk bytes. A promise is produced by its live source at load time; a file is
/// read from disk at load time.
package struct StoredRepresentation: Sendable {
    /// Where the bytes come from.
    package enum Content: Sendable {
        /// Bytes the daemon holds, in arrival order.
        case data([ByteBuffer])
        /// Bytes the owning source produces when a destination loads them.
        case promise(Promise)
        /// Bytes of a file the daemon reads at load time; `openInPlace` lets a destination take the path.
        case file(path: String, openInPlace: Bool)
        /// Bytes the daemon stored in a file of its own (`<state>/data/<id>.bytes`): a large
        /// eager representation, kept on disk only so the daemon's memory does not grow with
        /// what it holds, and shared by every pasteboard and history entry that holds it.
        case stored(SpoolFile)
        /// The bytes can no longer be had (their source is gone); the reason says why.
        case unavailable(String)
    }

    /// A representation a live source promised.
    package struct Promise: Sendable {
        /// The client that produces it (see `PromiseOwner`; internal, as the protocol is).
        let owner: any PromiseOwner
        /// The source's own number for it.
        package let id: Int
    }

    /// The representation's type.
    package var type: TypeIdentifier
    /// Its bytes, or how to get them.
    package var content: Content
    /// Byte count when known.
    package var size: Int?

    /// An eager representation whose bytes the daemon stored in `file`.
    package init(type: TypeIdentifier, file: SpoolFile) {
        self.type = type
        self.content = .stored(file)
        self.size = file.size
    }

    /// An eager representation holding `chunks`.
    package init(type: TypeIdentifier, chunks: [ByteBuffer]) {
        self.type = type
        self.content = .data(chunks)
        self.size = chunks.reduce(0) { $0 + $1.readableBytes }
    }

    /// The bytes of an eager representation, as a sensitivity marker's value is read (see
    /// `SensitivityMarker`): empty when there are 64 or more (no marker's value is that long);
    /// nil for a promise or a file, whose bytes are not at hand. Stored bytes are always longer
    /// than a marker's value (see `SpoolPolicy.memoryLimit`).
    var markerValue: [UInt8]? {
        if case .stored = content { return [] }
        guard case .data(let chunks) = content else { return nil }
        guard let size, size < 64 else { return [] }
        return chunks.flatMap { $0.readableBytesView }
    }

    /// A representation whose bytes come from `content`.
    package init(type: TypeIdentifier, content: Content, size: Int?) {
        self.type = type
        self.content = content
        self.size = size
    }

    /// True when the bytes can no longer be had.
    var isUnavailable: Bool {
        if case .unavailable = content { return true }
        return false
    }

    /// The promise behind this representation, while it is one.
    var promise: Promise? {
        if case .promise(let promise) = content { return promise }
        return nil
    }
}

/// One item on a pasteboard: representations in fidelity order, best first.
package struct StoredItem: Sendable {
    /// Representations, best first; never empty.
    package var representations: [StoredRepresentation]
    /// A file name a destination may use.
    package var suggestedName: String?
    /// Who may load the representations.
    package var visibility: ItemVisibility
    /// The process that wrote the item (for `own-process` visibility).
    package var writerPID: Int32?
    /// A secret: kept in memory only, never stored on disk.
    package var isSensitive: Bool

    /// Creates an item.
    package init(
        representations: [StoredRepresentation], suggestedName: String? = nil,
        visibility: ItemVisibility = .all, writerPID: Int32? = nil, isSensitive: Bool = false
    ) {
        self.isSensitive = isSensitive
        self.representations = representations
        self.suggestedName = suggestedName
        self.visibility = visibility
        self.writerPID = writerPID
    }

    /// The wire description of this item, with MIME types from `registry`.
    package func info(registry: TypeRegistry) -> ItemInfo {
        ItemInfo(
            representations: representations.map { representation in
                var info = RepresentationInfo(
                    type: representation.type.rawValue, size: representation.size,
                    mimeType: registry.preferredMIMEType(for: representation.type)
                )
                switch representation.content {
                case .data, .file, .stored: break
                case .promise: info.lazy = true
                case .unavailable: info.unavailable = true
                }
                return info
            },
            suggestedName: suggestedName,
            visibility: visibility == .all ? nil : visibility,
            sensitive: isSensitive ? true : nil
        )
    }
}

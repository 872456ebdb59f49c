import NIOCore
import PasteboardJSON
import PasteboardProtocol
import PasteboardTypes

/// An item as the daemon's files keep it in their JSON header: its metadata and, for each
/// representation, where its bytes are. The bytes of eager representations are not in the
/// header but in the file's body, in order (see `ArchiveFile`); stored ones (`kind` `stored`)
/// are in their own file in `data/`, which the header names by `spool` id.
struct ArchivedItem: JSONObjectCoding {
    var suggestedName: String?
    var visibility: ItemVisibility?
    var writerPID: Int32?
    var representations: [Representation]

    /// One representation in a header.
    struct Representation: JSONObjectCoding {
        enum Kind: String, Codable, JSONField { case data, file, promise, unavailable, stored }
        var type: String
        var kind: Kind
        var size: Int?
        var path: String?
        var openInPlace: Bool?
        /// For a promise: its source, for the message once it is unavailable; for unavailable: why.
        var note: String?
        /// For stored bytes: the id of their file in `data/` (see `SpoolFile`).
        var spool: String?
    }

    /// An item of no representations and no metadata, which reading then fills in.
    private init() {
        representations = []
    }

    /// `item` as a header describes it; its eager bytes are appended to `body`.
    init(_ item: StoredItem, body: inout [ByteBuffer]) {
        suggestedName = item.suggestedName
        visibility = item.visibility == .all ? nil : item.visibility
        writerPID = item.writerPID
        representations = item.representations.map { representation in
            var archived = Representation(type: representation.type.rawValue, kind: .data, size: representation.size)
            switch representation.content {
            case .data(let data):
                body += data
            case .file(let path, let openInPlace):
                archived.kind = .file
                archived.path = path
                archived.openInPlace = openInPlace ? true : nil
            case .promise(let promise):
                archived.kind = .promise
                archived.note = promise.owner.description
            case .unavailable(let reason):
                archived.kind = .unavailable
                archived.note = reason
            case .stored(let file):
                // Named from now on: the file may only go once no record on disk names it.
                file.markNamed()
                archived.kind = .stored
                archived.spool = file.id
                archived.size = file.size
            }
            return archived
        }
    }

    /// The item back, its eager bytes taken from `body`; a promise comes back unavailable (its
    /// source is not connected to this daemon), and stored bytes come from `spools` (unavailable,
    /// saying why, when their file is missing or damaged). Throws when the file at `path` is
    /// inconsistent.
    func stored(body: inout ByteBuffer, registry: TypeRegistry, path: String, spools: SpoolCatalog?) throws(ArchiveFile.Failure) -> StoredItem {
        var stored: [StoredRepresentation] = []
        for archived in representations {
            guard let type = registry.resolve(archived.type) ?? TypeIdentifier.wellFormed(archived.type) else {
                throw ArchiveFile.Failure(description: "\(path) names an invalid type '\(archived.type)'")
            }
            if let size = archived.size, size < 0 { throw ArchiveFile.Failure(description: "\(path) gives \(type) a negative size") }
            switch archived.kind {
            case .data:
                guard let size = archived.size, size >= 0, size <= body.readableBytes,
                      let bytes = body.readSlice(length: size)
                else { throw ArchiveFile.Failure(description: "\(path) is shorter than its header says") }
                stored.append(StoredRepresentation(type: type, chunks: size == 0 ? [] : [bytes]))
            case .file:
                guard let file = archived.path else { throw ArchiveFile.Failure(description: "\(path) has a file representation without a path") }
                stored.append(StoredRepresentation(type: type, content: .file(path: file, openInPlace: archived.openInPlace ?? false), size: archived.size))
            case .promise:
                let source = archived.note ?? "its source"
                stored.append(StoredRepresentation(
                    type: type,
                    content: .unavailable("pasteboardd restarted, and \(source), which promised \(type), has not offered it again"),
                    size: archived.size
                ))
            case .unavailable:
                stored.append(StoredRepresentation(type: type, content: .unavailable(archived.note ?? "unavailable"), size: archived.size))
            case .stored:
                guard let id = archived.spool, let size = archived.size else {
                    throw ArchiveFile.Failure(description: "\(path) has stored bytes without their file's id or size")
                }
                if let file = spools?.file(id: id, size: size, namedIn: path) {
                    stored.append(StoredRepresentation(type: type, file: file))
                } else {
                    stored.append(StoredRepresentation(
                        type: type, content: .unavailable("its stored bytes (data/\(SpoolFile.name(of: id))) are missing or damaged"), size: size))
                }
            }
        }
        guard !stored.isEmpty else { throw ArchiveFile.Failure(description: "\(path) has an item without representations") }
        return StoredItem(representations: stored, suggestedName: suggestedName, visibility: visibility ?? .all, writerPID: writerPID)
    }
}

extension ArchivedItem {
    static var decodingStart: ArchivedItem { ArchivedItem() }

    mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("suggestedName", &suggestedName)
        try json.member("visibility", &visibility)
        try json.member("writerPID", &writerPID)
        try json.member("representations", &representations)
    }
}

extension ArchivedItem.Representation {
    static var decodingStart: Self { Self(type: "", kind: .data) }

    mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("type", &type)
        try json.member("kind", &kind)
        try json.member("size", &size)
        try json.member("path", &path)
        try json.member("openInPlace", &openInPlace)
        try json.member("note", &note)
        try json.member("spool", &spool)
    }
}

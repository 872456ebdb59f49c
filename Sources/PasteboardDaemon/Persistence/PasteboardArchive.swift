import NIOCore
import PasteboardJSON
import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes

/// One named pasteboard on disk: `<name>.pasteboard` in the state directory.
///
/// An `ArchiveFile` with the magic `PBSTATE1` whose header (JSON) holds the name, the change
/// count, the items (`ArchivedItem`) and, for content that expires, `expiresAt` (milliseconds
/// since 1970 UTC; absent in archives of content that does not expire, and in every archive an
/// earlier daemon wrote, which therefore still read the same), and whose body holds the bytes
/// of every eager representation in order. Sensitive items are never written.
enum PasteboardArchive {
    static let fileExtension = ".pasteboard"
    static let magic = Array("PBSTATE1".utf8)

    /// A failure to write or read an archive, for logs and error messages.
    typealias Failure = ArchiveFile.Failure

    struct Header: JSONObjectCoding {
        var name: String
        var changeCount: Int
        var items: [ArchivedItem]
        /// When the items expire (see `ExpiryDeadline`); nil when they do not.
        var expiresAt: Int?
        /// Where and when the content was written; absent in archives of daemons before links.
        var origin: ChangeOrigin?

        static var decodingStart: Header { Header(name: "", changeCount: 0, items: []) }

        /// Every durable copy writes a header: through the members list it costs what a
        /// message does, where Codable's generic containers cost some 30,000 instructions.
        mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
            try json.member("name", &name)
            try json.member("changeCount", &changeCount)
            try json.member("items", &items)
            try json.member("expiresAt", &expiresAt)
            try json.member("origin", &origin)
        }
    }

    /// The archive file of pasteboard `name` in `directory`.
    static func path(of name: String, in directory: String) -> String {
        directory + "/" + name + fileExtension
    }

    /// Writes `pasteboard` durably into `directory`: temporary file, fsync, rename, and a sync
    /// of the directory unless `syncsDirectory` is false (the caller syncs it once for several).
    static func write(_ pasteboard: NamedPasteboard, to directory: String, syncsDirectory: Bool = true) throws(Failure) {
        try ArchiveFile.write(encoded(pasteboard), to: path(of: pasteboard.name, in: directory), in: directory, syncsDirectory: syncsDirectory)
    }

    /// The bytes of `pasteboard`'s archive, as its file holds them.
    static func encoded(_ pasteboard: NamedPasteboard) -> [ByteBuffer] {
        let (header, body) = parts(of: pasteboard)
        return ArchiveFile.encoded(magic: magic, header: header, body: body)
    }

    /// The header and body of `pasteboard`'s archive.
    private static func parts(of pasteboard: NamedPasteboard) -> (header: [UInt8], body: [ByteBuffer]) {
        var body: [ByteBuffer] = []
        // Sensitive items stay in memory only: after a restart the pasteboard holds the others.
        let items = pasteboard.items.filter { !$0.isSensitive }.map { ArchivedItem($0, body: &body) }
        let header = Header(name: pasteboard.name, changeCount: pasteboard.changeCount, items: items,
                            expiresAt: pasteboard.expiry?.millisecondsSinceEpoch, origin: pasteboard.origin)
        return (header.jsonDocument, body)
    }

    /// Reads the archive at `path`; throws when it is truncated, corrupt, not an archive, or
    /// holds a pasteboard of another name than the file's.
    static func read(_ path: String, registry: TypeRegistry, spools: SpoolCatalog? = nil) throws(Failure) -> NamedPasteboard {
        let (header, body) = try ArchiveFile.read(path, magic: magic, kind: "a pasteboard archive")
        let pasteboard = try decode(header: header, body: body, registry: registry, source: path, spools: spools)
        guard path.hasSuffix("/" + pasteboard.name + fileExtension) else {
            throw Failure(description: "\(path) holds pasteboard '\(pasteboard.name)', which does not match its file name")
        }
        return pasteboard
    }

    /// The pasteboard in `bytes`, one archive's whole content (`source` names it in errors).
    static func decode(_ bytes: ByteBuffer, registry: TypeRegistry, source: String, spools: SpoolCatalog? = nil) throws(Failure) -> NamedPasteboard {
        let (header, body) = try ArchiveFile.decode(bytes, magic: magic, kind: "a pasteboard archive", source: source)
        return try decode(header: header, body: body, registry: registry, source: source, spools: spools)
    }

    private static func decode(header headerBytes: [UInt8], body: ByteBuffer, registry: TypeRegistry, source: String, spools: SpoolCatalog?) throws(Failure) -> NamedPasteboard {
        var body = body
        let header: Header
        do {
            header = try Header(jsonDocument: headerBytes)
        } catch {
            throw Failure(description: "\(source) has an unreadable header: \(error)")
        }
        guard PasteboardName.validationFailure(header.name) == nil else {
            throw Failure(description: "\(source) holds a pasteboard with an invalid name '\(header.name)'")
        }
        guard NamedPasteboard.changeCounts.contains(header.changeCount) else {
            throw Failure(description: "\(source) has a change count out of range (\(header.changeCount))")
        }
        var items: [StoredItem] = []
        for item in header.items {
            items.append(try item.stored(body: &body, registry: registry, path: source, spools: spools))
        }
        guard body.readableBytes == 0 else { throw Failure(description: "\(source) is longer than its header says") }
        if let problem = header.origin?.problem { throw Failure(description: "\(source) has an invalid origin: \(problem)") }
        return NamedPasteboard(name: header.name, changeCount: header.changeCount, items: items,
                               expiry: header.expiresAt.map(ExpiryDeadline.init(millisecondsSinceEpoch:)), origin: header.origin)
    }
}

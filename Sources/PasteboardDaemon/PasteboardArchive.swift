import NIOCore
import PasteboardProtocol
import PasteboardTypes

/// One named pasteboard on disk: `<name>.pasteboard` in the state directory.
///
/// An `ArchiveFile` with the magic `PBSTATE1` whose header (JSON) holds the name, the change
/// count and the items (`ArchivedItem`), and whose body holds the bytes of every eager
/// representation in order. Sensitive items are never written.
enum PasteboardArchive {
    static let fileExtension = ".pasteboard"
    private static let magic = Array("PBSTATE1".utf8)

    /// A failure to write or read an archive, for logs and error messages.
    typealias Failure = ArchiveFile.Failure

    private struct Header: Codable {
        var name: String
        var changeCount: Int
        var items: [ArchivedItem]
    }

    /// The archive file of pasteboard `name` in `directory`.
    static func path(of name: String, in directory: String) -> String {
        directory + "/" + name + fileExtension
    }

    /// Writes `pasteboard` durably into `directory`: temporary file, fsync, rename, fsync of the directory.
    static func write(_ pasteboard: NamedPasteboard, to directory: String) throws(Failure) {
        var body: [ByteBuffer] = []
        // Sensitive items stay in memory only: after a restart the pasteboard holds the others.
        let items = pasteboard.items.filter { !$0.isSensitive }.map { ArchivedItem($0, body: &body) }
        let header = Header(name: pasteboard.name, changeCount: pasteboard.changeCount, items: items)
        // Encoding plain Codable structs of strings and numbers (all finite) cannot fail.
        let headerBytes = try! JSONBytesEncoder.encode(header)
        try ArchiveFile.write(magic: magic, header: headerBytes, body: body, to: path(of: pasteboard.name, in: directory), in: directory)
    }

    /// Reads the archive at `path`; throws when it is truncated, corrupt or not an archive.
    static func read(_ path: String, registry: TypeRegistry) throws(Failure) -> NamedPasteboard {
        var (headerBytes, body) = try ArchiveFile.read(path, magic: magic, kind: "a pasteboard archive")
        let header: Header
        do {
            header = try JSONTreeDecoder.decode(Header.self, from: headerBytes)
        } catch {
            throw Failure(description: "\(path) has an unreadable header: \(error)")
        }
        guard PasteboardName.validationFailure(header.name) == nil, path.hasSuffix("/" + header.name + fileExtension) else {
            throw Failure(description: "\(path) holds pasteboard '\(header.name)', which does not match its file name")
        }
        var items: [StoredItem] = []
        for item in header.items {
            items.append(try item.stored(body: &body, registry: registry, path: path))
        }
        guard body.readableBytes == 0 else { throw Failure(description: "\(path) is longer than its header says") }
        return NamedPasteboard(name: header.name, changeCount: header.changeCount, items: items)
    }
}

import NIOCore
import PasteboardProtocol
import PasteboardTypes

/// One entry of the general pasteboard's history on disk: `<sequence>.entry` in the history
/// directory, the sequence written with 16 digits so the names sort by age.
///
/// An `ArchiveFile` with the magic `PBHIST01` whose header (JSON) holds the sequence, change
/// count, time and items (`ArchivedItem`), and whose body holds the bytes of the eager and
/// captured representations in order. Only what the entry keeps is written: data and file
/// representations, never a pending promise (see `HistoryEntry.keptItems`); sensitive content
/// never becomes an entry at all.
enum HistoryArchive {
    static let fileExtension = ".entry"
    private static let magic = Array("PBHIST01".utf8)

    private struct Header: Codable {
        var sequence: Int
        var changeCount: Int
        var time: Double
        var items: [ArchivedItem]
    }

    /// The file name of entry `sequence`.
    static func fileName(of sequence: Int) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits + fileExtension
    }

    /// The sequence a file name stands for, when it is an entry's name.
    static func sequence(inFileName name: String) -> Int? {
        guard name.hasSuffix(fileExtension) else { return nil }
        let digits = name.dropLast(fileExtension.count)
        guard digits.count == 16, digits.allSatisfy(\.isASCII) else { return nil }
        return Int(digits)
    }

    /// Writes `entry` durably into `directory`: temporary file, fsync, rename, fsync of the directory.
    static func write(_ entry: HistoryEntry, to directory: String) throws(ArchiveFile.Failure) {
        var body: [ByteBuffer] = []
        let items = entry.keptItems.map { ArchivedItem($0, body: &body) }
        let header = Header(sequence: entry.sequence, changeCount: entry.changeCount, time: entry.time, items: items)
        // Encoding plain Codable structs of strings and numbers (all finite) cannot fail.
        let headerBytes = try! JSONBytesEncoder.encode(header)
        try ArchiveFile.write(magic: magic, header: headerBytes, body: body, to: directory + "/" + fileName(of: entry.sequence), in: directory)
    }

    /// Reads the entry at `path`; throws when it is truncated, corrupt, not an entry, or holds
    /// something an entry never keeps.
    static func read(_ path: String, registry: TypeRegistry) throws(ArchiveFile.Failure) -> HistoryEntry {
        var (headerBytes, body) = try ArchiveFile.read(path, magic: magic, kind: "a history entry")
        let header: Header
        do {
            header = try JSONTreeDecoder.decode(Header.self, from: headerBytes)
        } catch {
            throw ArchiveFile.Failure(description: "\(path) has an unreadable header: \(error)")
        }
        guard path.hasSuffix("/" + fileName(of: header.sequence)) else {
            throw ArchiveFile.Failure(description: "\(path) holds entry \(header.sequence), which does not match its file name")
        }
        var items: [StoredItem] = []
        for item in header.items {
            let stored = try item.stored(body: &body, registry: registry, path: path)
            guard stored.visibility == .all, !stored.representations.contains(where: \.isUnavailable) else {
                throw ArchiveFile.Failure(description: "\(path) holds an item a history entry never keeps")
            }
            items.append(stored)
        }
        guard !items.isEmpty else { throw ArchiveFile.Failure(description: "\(path) has no items") }
        guard body.readableBytes == 0 else { throw ArchiveFile.Failure(description: "\(path) is longer than its header says") }
        return HistoryEntry(sequence: header.sequence, changeCount: header.changeCount, time: header.time, items: items)
    }
}

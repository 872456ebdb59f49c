import NIOCore
import PasteboardJSON
import PasteboardProtocol
import PasteboardTypes

/// One entry of the general pasteboard's history on disk: `<sequence>.entry` in the history
/// directory, the sequence written with 16 digits so the names sort by age.
///
/// An `ArchiveFile` with the magic `PBHIST01` whose header (JSON) holds the sequence, change
/// count, time, the time the content first entered the history when it is earlier
/// (`firstTime`), and items (`ArchivedItem`), and whose body holds the bytes of the eager and
/// captured representations in order. Only what the entry keeps is written: data and file
/// representations, never a pending promise (see `HistoryEntry.keptItems`); sensitive content
/// never becomes an entry at all.
enum HistoryArchive {
    static let fileExtension = ".entry"
    static let magic = Array("PBHIST01".utf8)

    private struct Header: JSONObjectCoding {
        var sequence: Int
        var changeCount: Int
        var time: Double
        /// Absent in entries written before it was kept: then `time`.
        var firstTime: Double?
        var items: [ArchivedItem]
        /// The machine a linked content came from; absent for this machine's own.
        var origin: ChangeOrigin?

        static var decodingStart: Header { Header(sequence: 0, changeCount: 0, time: 0, items: []) }

        mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
            try json.member("sequence", &sequence)
            try json.member("changeCount", &changeCount)
            try json.member("time", &time)
            try json.member("firstTime", &firstTime)
            try json.member("items", &items)
            try json.member("origin", &origin)
        }
    }

    /// The file name of entry `sequence`.
    static func fileName(of sequence: Int) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits + fileExtension
    }

    /// The largest sequence: the most a file name's 16 digits hold.
    static let largestSequence = 9_999_999_999_999_999

    /// The sequence a file name stands for, when it is an entry's name.
    static func sequence(inFileName name: String) -> Int? {
        guard name.hasSuffix(fileExtension) else { return nil }
        let digits = name.dropLast(fileExtension.count)
        guard digits.count == 16, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(digits)
    }

    /// The bytes of `entry`'s file.
    static func encoded(_ entry: HistoryEntry) -> [ByteBuffer] {
        var body: [ByteBuffer] = []
        let items = entry.keptItems.map { ArchivedItem($0, body: &body) }
        let header = Header(sequence: entry.sequence, changeCount: entry.changeCount, time: entry.time,
                            firstTime: entry.firstTime == entry.time ? nil : entry.firstTime, items: items, origin: entry.origin)
        return ArchiveFile.encoded(magic: magic, header: header.jsonDocument, body: body)
    }

    /// Writes `archive`, entry `sequence`'s bytes (see `encoded`), into `directory`: temporary
    /// file, fsync, rename, and a sync of the directory unless `syncsDirectory` is false (the
    /// caller syncs it once for several).
    static func write(_ archive: [ByteBuffer], sequence: Int, to directory: String, syncsDirectory: Bool = true) throws(ArchiveFile.Failure) {
        try ArchiveFile.write(archive, to: directory + "/" + fileName(of: sequence), in: directory, syncsDirectory: syncsDirectory)
    }

    /// Reads the entry at `path`; throws when it is truncated, corrupt, not an entry, holds
    /// something an entry never keeps, or another entry than its name says.
    static func read(_ path: String, registry: TypeRegistry, spools: SpoolCatalog? = nil) throws(ArchiveFile.Failure) -> HistoryEntry {
        let (header, body) = try ArchiveFile.read(path, magic: magic, kind: "a history entry")
        let entry = try decode(header: header, body: body, registry: registry, source: path, spools: spools)
        guard path.hasSuffix("/" + fileName(of: entry.sequence)) else {
            throw ArchiveFile.Failure(description: "\(path) holds entry \(entry.sequence), which does not match its file name")
        }
        return entry
    }

    /// The entry in `bytes`, one file's whole content (`source` names it in errors).
    static func decode(_ bytes: ByteBuffer, registry: TypeRegistry, source: String, spools: SpoolCatalog? = nil) throws(ArchiveFile.Failure) -> HistoryEntry {
        let (header, body) = try ArchiveFile.decode(bytes, magic: magic, kind: "a history entry", source: source)
        return try decode(header: header, body: body, registry: registry, source: source, spools: spools)
    }

    private static func decode(header headerBytes: [UInt8], body: ByteBuffer, registry: TypeRegistry, source: String, spools: SpoolCatalog?) throws(ArchiveFile.Failure) -> HistoryEntry {
        var body = body
        let header: Header
        do {
            header = try Header(jsonDocument: headerBytes)
        } catch {
            throw ArchiveFile.Failure(description: "\(source) has an unreadable header: \(error)")
        }
        // Numbers from a file: the next sequence and change count are counted on from these, and
        // the time is printed as a date.
        guard (0...Self.largestSequence).contains(header.sequence), NamedPasteboard.changeCounts.contains(header.changeCount),
              header.time.isFinite, abs(header.time) < 1e15, header.firstTime.map({ $0.isFinite && abs($0) < 1e15 }) ?? true
        else {
            throw ArchiveFile.Failure(description: "\(source) has a sequence, change count or time out of range")
        }
        var items: [StoredItem] = []
        for item in header.items {
            let stored = try item.stored(body: &body, registry: registry, path: source, spools: spools)
            guard stored.visibility == .all, !stored.representations.contains(where: \.isUnavailable) else {
                throw ArchiveFile.Failure(description: "\(source) holds an item a history entry never keeps")
            }
            items.append(stored)
        }
        guard !items.isEmpty else { throw ArchiveFile.Failure(description: "\(source) has no items") }
        guard body.readableBytes == 0 else { throw ArchiveFile.Failure(description: "\(source) is longer than its header says") }
        if let problem = header.origin?.problem { throw ArchiveFile.Failure(description: "\(source) has an invalid origin: \(problem)") }
        return HistoryEntry(sequence: header.sequence, changeCount: header.changeCount, time: header.time,
                            firstTime: header.firstTime.map { min($0, header.time) }, items: items, origin: header.origin)
    }
}

import NIOCore
import PasteboardJSON
import PasteboardTypes

/// What one record of the journal holds (see `JournalFile`), told apart by its archive's magic:
/// a pasteboard's new content (`PBSTATE1`, see `PasteboardArchive`), a history entry's
/// (`PBHIST01`, see `HistoryArchive`), or the sequences of history entries that left
/// (`PBHGONE1`: an `ArchiveFile` whose JSON header is `{"sequences":[…]}` and whose body is empty).
enum JournalRecord {
    case pasteboard(NamedPasteboard)
    /// The entry, and its archive's bytes, which its file will hold.
    case historyEntry(HistoryEntry, archive: ByteBuffer)
    case historyRemoval([Int])

    static let removalMagic = Array("PBHGONE1".utf8)

    private struct Removal: JSONObjectCoding {
        var sequences: [Int]

        static var decodingStart: Removal { Removal(sequences: []) }

        mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
            try json.member("sequences", &sequences)
        }
    }

    /// The most sequences one removal record lists, so it stays far below
    /// `JournalFile.recordLengthLimit` (a sequence takes at most 20 bytes of JSON).
    static let sequencesPerRemoval = 10_000

    /// The bytes of a record saying the entries `sequences` left.
    static func removal(of sequences: [Int]) -> [ByteBuffer] {
        ArchiveFile.encoded(magic: removalMagic, header: Removal(sequences: sequences).jsonDocument, body: [])
    }

    /// The records saying the entries `sequences` left, each listing at most
    /// `sequencesPerRemoval`.
    static func removals(of sequences: [Int]) -> [[ByteBuffer]] {
        stride(from: 0, to: sequences.count, by: sequencesPerRemoval).map { start in
            removal(of: Array(sequences[start..<min(start + sequencesPerRemoval, sequences.count)]))
        }
    }

    /// The members of a record's header that say what it holds.
    private struct Identity: JSONObjectCoding {
        var name: String?
        var changeCount: Int?
        var sequence: Int?

        static var decodingStart: Identity { Identity() }

        mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
            try json.member("name", &name)
            try json.member("changeCount", &changeCount)
            try json.member("sequence", &sequence)
        }
    }

    /// What a record that failed its checksum seems to hold, read from its header without
    /// trusting it (for the log line that says what was lost): "pasteboard 'work' (change
    /// count 3)", "history entry 12", "a history removal", or "unknown".
    static func describeDamaged(_ archive: ByteBuffer) -> String {
        let magic = archive.getBytes(at: archive.readerIndex, length: min(8, archive.readableBytes))
        if magic == removalMagic { return "a history removal" }
        guard magic == PasteboardArchive.magic || magic == HistoryArchive.magic,
              let headerLength = archive.getInteger(at: archive.readerIndex + 8, as: UInt32.self),
              Int(headerLength) <= archive.readableBytes - 12,
              let header = archive.getBytes(at: archive.readerIndex + 12, length: Int(headerLength)),
              let identity = try? Identity(jsonDocument: header)
        else { return "unknown (its header is damaged)" }
        if magic == HistoryArchive.magic { return identity.sequence.map { "history entry \($0)" } ?? "a history entry" }
        guard let name = identity.name else { return "a pasteboard" }
        return "pasteboard '\(name)'" + (identity.changeCount.map { " (change count \($0))" } ?? "")
    }

    /// The record in `archive`, one record's bytes (`source` names it in errors); throws when
    /// it is none of the three kinds or fails its kind's checks.
    static func decode(_ archive: ByteBuffer, registry: TypeRegistry, source: String, spools: SpoolCatalog? = nil) throws(ArchiveFile.Failure) -> JournalRecord {
        switch archive.getBytes(at: archive.readerIndex, length: min(8, archive.readableBytes)) {
        case PasteboardArchive.magic:
            return .pasteboard(try PasteboardArchive.decode(archive, registry: registry, source: source, spools: spools))
        case HistoryArchive.magic:
            return .historyEntry(try HistoryArchive.decode(archive, registry: registry, source: source, spools: spools), archive: archive)
        case removalMagic:
            let (header, _) = try ArchiveFile.decode(archive, magic: removalMagic, kind: "a history removal", source: source)
            do {
                return .historyRemoval(try Removal(jsonDocument: header).sequences)
            } catch {
                throw ArchiveFile.Failure(description: "\(source) has an unreadable header: \(error)")
            }
        default:
            throw ArchiveFile.Failure(description: "\(source) is not a record the journal holds")
        }
    }
}

extension JournalFile {
    /// What a journal's records come to when read in order: the newest content of each
    /// pasteboard and history entry it holds, and the entries that left.
    struct Replay {
        /// The newest content of each pasteboard, by name.
        var newest: [String: NamedPasteboard] = [:]
        /// The newest archive of each history entry, by sequence.
        var entries: [Int: ByteBuffer] = [:]
        /// The entries that left: their files must go.
        var removedEntries: Set<Int> = []

        /// The pasteboards, in no particular order.
        var pasteboards: [NamedPasteboard] { Array(newest.values) }

        /// Applies the next record.
        mutating func apply(_ record: JournalRecord) {
            switch record {
            case .pasteboard(let pasteboard):
                newest[pasteboard.name] = pasteboard
            case .historyEntry(let entry, let archive):
                entries[entry.sequence] = archive
                removedEntries.remove(entry.sequence)
            case .historyRemoval(let sequences):
                for sequence in sequences {
                    entries[sequence] = nil
                    removedEntries.insert(sequence)
                }
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NIOCore

/// The format of the state directory's journal (`journal`): the pasteboards written since the
/// last checkpoint, appended as they are written (see `StorageWriter`).
///
/// Layout: the 8-byte magic `PBJRNL01`, then records, each a 4-byte big-endian length and that
/// many bytes: one pasteboard's whole archive (see `PasteboardArchive`), checksum included. A
/// later record of a pasteboard replaces an earlier one. Records are only ever appended (a
/// compaction writes a new journal and renames it into place), and each batch is synced before
/// any of its writes is acknowledged, so a crash can only leave an incomplete record at the
/// end. A record damaged later (a flipped bit) is skipped on its own: reading goes on after it
/// (see `JournalScanner`), so one bad record never costs the acknowledged ones after it.
///
/// After the records the file may hold zeros to its end: the writer extends the journal ahead
/// of its records by `preallocation` bytes of written zeros, so that appending overwrites
/// blocks the file already has and its `fdatasync` has no size or extent change to commit
/// (on ext4 that halves a small durable copy's sync). A zero length word ends the records.
enum JournalFile {
    /// How far ahead of its records the writer extends the journal with zeros.
    static let preallocation = 256 << 10
    /// The journal's file name in the state directory.
    static let name = "journal"
    /// The bytes every journal starts with.
    static let magic = Array("PBJRNL01".utf8)
    /// Where records begin.
    static var headerLength: Int { magic.count }

    /// Appends to `buffer` the record of one archive, `archive` being its bytes in order.
    static func appendRecord(of archive: [ByteBuffer], to buffer: inout ByteBuffer) {
        buffer.writeInteger(UInt32(archive.reduce(0) { $0 + $1.readableBytes }))
        for chunk in archive { buffer.writeImmutableBuffer(chunk) }
    }

    /// The longest record a journal holds: the writer appends archives of at most
    /// `StorageWriter.journalRecordLimit` bytes and history removals it splits to stay under
    /// this, so a longer length word is damage, never allocated.
    static let recordLengthLimit = 1 << 20
    /// The name of the file the compacting writer fills before renaming it over the journal.
    static let temporaryName = name + ArchiveFile.temporarySuffix
    /// The name a damaged journal's copy gets (`journal.damaged`, else the first free of
    /// `journal.damaged.1` to `.99`), so an earlier copy is never overwritten.
    static let damagedName = name + ".damaged"

    /// The first name in `directory` under which a damaged journal can be kept without
    /// replacing an earlier one, or nil when all are taken.
    static func freeDamagedPath(in directory: String) -> String? {
        for index in 0..<100 {
            let path = directory + "/" + damagedName + (index == 0 ? "" : ".\(index)")
            var info = stat()
            if lstat(path, &info) != 0 && errno == ENOENT { return path }
        }
        return nil
    }
}

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
/// later record of a pasteboard replaces an earlier one. Records are only ever appended, and
/// each batch is synced before any of its writes is acknowledged, so a crash can only leave an
/// incomplete record at the end, which reading stops at.
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

    /// What a journal's bytes hold: the archives of its whole records, in order, and where the
    /// valid part ends.
    struct Contents {
        /// Each whole record's archive bytes, oldest first.
        var archives: [ByteBuffer] = []
        /// The length of the magic and the whole records; what follows is not to be trusted.
        var validLength = JournalFile.headerLength
        /// Why reading stopped before the end, when it did.
        var problem: String?
    }

    /// Splits `bytes`, a journal's whole content, into its records. A record that is cut short
    /// or fails its archive's checksum ends the valid part (`problem` says so). Throws when
    /// `bytes` does not start as a journal does.
    static func contents(of bytes: ByteBuffer, source: String) throws(ArchiveFile.Failure) -> Contents {
        var buffer = bytes
        guard buffer.readBytes(length: magic.count) == magic else {
            throw ArchiveFile.Failure(description: "\(source) is not a pasteboard journal")
        }
        var contents = Contents()
        while buffer.readableBytes > 0 {
            let offset = contents.validLength
            if buffer.readableBytes >= 4, buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) == 0 {
                // The zeros written ahead of the records; anything else there is a write cut short.
                if !buffer.readableBytesView.allSatisfy({ $0 == 0 }) {
                    contents.problem = "\(source) ends in an incomplete record at byte \(offset) (a write cut short)"
                }
                break
            }
            guard let length = buffer.readInteger(as: UInt32.self), let archive = buffer.readSlice(length: Int(length)) else {
                contents.problem = "\(source) ends in an incomplete record at byte \(offset) (a write cut short)"
                break
            }
            guard archive.readableBytes >= 12, archive.withUnsafeReadableBytes({ bytes in
                ArchiveFile.checksumMatches(bytes)
            }) else {
                contents.problem = "\(source) has a record that fails its checksum at byte \(offset)"
                break
            }
            contents.archives.append(archive)
            contents.validLength += 4 + archive.readableBytes
        }
        return contents
    }
}

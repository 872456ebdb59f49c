import NIOCore

/// Reads a journal (see `JournalFile`) one record at a time, holding one record in memory
/// (each length word is checked against `JournalFile.recordLengthLimit` before anything is
/// read for it), and tells a write cut short at the end from damage inside.
///
/// A record that fails its checksum is skipped on its own when its length word is plausible
/// (within `JournalFile.recordLengthLimit`, its end within the file): reading resumes where the
/// length word says the record ends, whatever is there (a flipped bit inside a record costs
/// that record only). Nothing inside that span is ever searched: a record's data may hold the
/// image of a valid record (a copied journal or archive file), which must not be applied as
/// one. Only when the length word itself is implausible does reading resynchronise: it looks
/// for the next place where a record's magic follows a plausible length word and the checksum
/// holds; that search never starts inside a plausible span. What is at the very end is a torn
/// write (never acknowledged, so not lost) when it runs past the file or its checksum's place
/// still holds the zeros the writer extends the journal with; anything else that is skipped is
/// damage, reported as `JournalDamage`.
struct JournalScanner<Bytes: JournalBytes> {
    /// The journal's bytes.
    let bytes: Bytes
    /// The journal's name in messages.
    let source: String

    /// What a scan found besides the records.
    struct Outcome {
        /// Where the last whole, valid record ends: new records go there.
        var validLength = JournalFile.headerLength
        /// Why the end was ignored, when the last write was cut short (never acknowledged).
        var tornTail: String?
        /// The stretches skipped as damaged, in order.
        var damaged: [JournalDamage] = []
    }

    /// How much of the file is looked at at once when checking for zeros or resynchronising.
    private static var chunkLength: Int { 64 << 10 }
    /// The magics a record can start with.
    private static var recordMagics: [[UInt8]] { [PasteboardArchive.magic, HistoryArchive.magic, JournalRecord.removalMagic] }

    /// Calls `visit` with each valid record's archive bytes, oldest first, and its number in
    /// the journal (counting damaged ones, from 1); returns what else was found. Throws when
    /// the bytes do not start as a journal does.
    func scan(_ visit: (ByteBuffer, Int) -> Void) throws(ArchiveFile.Failure) -> Outcome {
        guard bytes.read(at: 0, length: JournalFile.headerLength).map({ Array($0.readableBytesView) }) == JournalFile.magic else {
            throw ArchiveFile.Failure(description: "\(source) is not a pasteboard journal")
        }
        var outcome = Outcome()
        var offset = JournalFile.headerLength
        var number = 0
        let count = bytes.count
        while offset < count {
            guard let word = bytes.read(at: offset, length: 4)?.getInteger(at: 0, as: UInt32.self) else {
                if !isZeros(from: offset) { outcome.tornTail = cutShort(at: offset) }
                break
            }
            if word == 0 {
                // The zeros written ahead of the records, unless something follows them.
                if isZeros(from: offset) { break }
                if let next = nextRecord(after: offset) {
                    number += 1
                    outcome.damaged.append(JournalDamage(number: number, offset: offset, length: next - offset, reason: "a zero length word", content: nil))
                    offset = next
                    continue
                }
                outcome.tornTail = cutShort(at: offset)
                break
            }
            number += 1
            let length = Int(word)
            if let archive = validArchive(at: offset) {
                visit(archive, number)
                offset += 4 + length
                outcome.validLength = offset
                continue
            }
            let plausible = length >= 12 && length <= JournalFile.recordLengthLimit
            let runsPastEnd = length > count - offset - 4
            let archive = plausible && !runsPastEnd ? bytes.read(at: offset + 4, length: length) : nil
            let content = archive.map(JournalRecord.describeDamaged)
            if let archive {
                // Its span lies within the file: reading resumes where it ends, and nothing inside
                // it is looked at (its data may hold a record's image: a copied journal or archive).
                let next = offset + 4 + length
                if next < count, !isZeros(from: next) {
                    outcome.damaged.append(JournalDamage(number: number, offset: offset, length: next - offset, reason: "it fails its checksum", content: content))
                    offset = next
                    continue
                }
                if Self.endsInZeros(archive) {
                    outcome.tornTail = "\(source) ends in an incomplete record at byte \(offset) (a write cut short)"
                } else {
                    outcome.damaged.append(JournalDamage(number: number, offset: offset, length: next - offset, reason: "it fails its checksum", content: content))
                }
                break
            }
            // The length word is damaged (or the record runs past the end): find the next one.
            if let next = nextRecord(after: offset) {
                let reason = "its length word (\(length)) is damaged"
                outcome.damaged.append(JournalDamage(number: number, offset: offset, length: next - offset, reason: reason, content: content))
                offset = next
                continue
            }
            if plausible && runsPastEnd {
                outcome.tornTail = cutShort(at: offset)
            } else {
                outcome.damaged.append(JournalDamage(number: number, offset: offset, length: count - offset, reason: "its length word (\(length)) is damaged and no whole record follows", content: content))
            }
            break
        }
        return outcome
    }

    private func cutShort(at offset: Int) -> String {
        "\(source) ends in an incomplete record at byte \(offset) (a write cut short)"
    }

    /// The archive of the record at `offset` when it is whole and passes its checksum.
    private func validArchive(at offset: Int) -> ByteBuffer? {
        guard let word = bytes.read(at: offset, length: 4)?.getInteger(at: 0, as: UInt32.self) else { return nil }
        let length = Int(word)
        guard length >= 12, length <= JournalFile.recordLengthLimit, length <= bytes.count - offset - 4,
              let archive = bytes.read(at: offset + 4, length: length),
              archive.withUnsafeReadableBytes(ArchiveFile.checksumMatches)
        else { return nil }
        return archive
    }

    /// Whether every byte from `offset` to the end is zero.
    private func isZeros(from offset: Int) -> Bool {
        var position = offset
        while position < bytes.count {
            let length = min(Self.chunkLength, bytes.count - position)
            guard let chunk = bytes.read(at: position, length: length), chunk.readableBytesView.allSatisfy({ $0 == 0 }) else { return false }
            position += length
        }
        return true
    }

    /// Where the next valid record after `offset` starts: the first place past it where a
    /// record's magic follows a length word and the record passes its checksum.
    private func nextRecord(after offset: Int) -> Int? {
        // A record's magic sits 4 bytes after its start; chunks overlap by a magic's length.
        var position = offset + 1 + 4
        let magicLength = JournalFile.magic.count
        while position + magicLength <= bytes.count {
            let length = min(Self.chunkLength + magicLength - 1, bytes.count - position)
            guard let chunk = bytes.read(at: position, length: length) else { return nil }
            let view = chunk.readableBytesView
            var index = view.startIndex
            while index + magicLength <= view.endIndex {
                if view[index] == UInt8(ascii: "P"), view[index + 1] == UInt8(ascii: "B"),
                   Self.recordMagics.contains(where: { $0.elementsEqual(view[index..<index + magicLength]) }) {
                    let start = position + (index - view.startIndex) - 4
                    if validArchive(at: start) != nil { return start }
                }
                index += 1
            }
            position += length - (magicLength - 1)
        }
        return nil
    }

    /// Whether the checksum's place at the end of `archive` holds zeros: the record's last
    /// bytes never reached the disk (a torn write), rather than being changed afterwards.
    private static func endsInZeros(_ archive: ByteBuffer) -> Bool {
        archive.readableBytesView.suffix(4).allSatisfy { $0 == 0 }
    }
}

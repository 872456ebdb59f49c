#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NIOCore

/// A copy the general pasteboard held only for a moment, as a password manager holds a secret
/// there: `pass -c`, gopass and the like copy it with plain `xclip` or `wl-copy`, wait, then
/// copy back what was there before (or clear), and mark nothing "secret". Such a copy must leave
/// no trace: no history entry, no record in the journal, no stored file.
///
/// The rule, decided when the next write of the general pasteboard arrives: the content written
/// at change count `n` (its history entry) was transient when that write comes within
/// `HistoryLimits.transientSeconds` of it, counted from when that content first entered the
/// history (a content the history held already, copied again, is an old one), and either
/// - holds nothing: no item, or items whose every representation is empty (a clear, or the
///   empty text `pass` puts back when the clipboard was empty), or
/// - holds again what the content of change count `n − 1` held (its history entry): as many
///   items, each representation of each new item with the bytes of one of the old item's
///   representations. Types and names are not compared: a restore through `xclip` or
///   `wl-copy` has the bytes a paste gave it, typed by sniffing again.
///
/// Nothing about a copy says it is transient until it is replaced, so it is acknowledged
/// durably as every copy is; what the rule adds is that it then leaves with the write that shows
/// it, and the journal is checkpointed before that write is visible, so the files hold no byte
/// of it (see `PasteboardStore.replaceItems`).
/// Entries and their times are kept with the history, so the rule holds across a restart. Its
/// cost is that copying A, then B, then A again within the span drops B from the history.
struct TransientCopy: Sendable {
    /// The history entry of the transient content.
    let sequence: Int
    /// The change count it was written at.
    let changeCount: Int
    /// Whether it was replaced by nothing (else by what it replaced).
    let cleared: Bool
    /// The comparisons that need bytes read from stored files: for each new representation
    /// whose match is not settled in memory, the old contents it may equal (one must).
    let unsettled: [Unsettled]

    /// One new representation's bytes, and the old ones of the same size it may equal.
    struct Unsettled: Sendable {
        let new: StoredRepresentation.Content
        let candidates: [StoredRepresentation.Content]
    }

    /// The transient copy the write of `items` at `time` shows, if any: `current` is the change
    /// count the write replaces, `history` the history before it.
    static func shown(by items: [StoredItem], replacing current: Int, at time: Double, in history: ContentHistory) -> TransientCopy? {
        // From the content's first entry into the history: a content copied again (restored by
        // a password manager, say) is an old one, never a transient copy.
        guard let window = history.limits.transientSeconds,
              let replaced = history.entries.first(where: { $0.changeCount == current }),
              time >= replaced.firstTime, time - replaced.firstTime <= window
        else { return nil }
        if items.allSatisfy(holdsNothing) {
            return TransientCopy(sequence: replaced.sequence, changeCount: current, cleared: true, unsettled: [])
        }
        guard let before = history.entries.first(where: { $0.changeCount == current - 1 }),
              before.items.count == items.count
        else { return nil }
        var unsettled: [Unsettled] = []
        for (new, old) in zip(items, before.items) {
            for representation in new.representations {
                switch match(representation, among: old.representations) {
                case .equal: continue
                case .different: return nil
                case .toRead(let candidates): unsettled.append(Unsettled(new: representation.content, candidates: candidates))
                }
            }
        }
        return TransientCopy(sequence: replaced.sequence, changeCount: current, cleared: false, unsettled: unsettled)
    }

    /// Whether the stored bytes of every unsettled comparison match (read from their files;
    /// blocking, for a thread of its own). A file that cannot be read matches nothing.
    func bytesMatch() -> Bool {
        unsettled.allSatisfy { comparison in
            comparison.candidates.contains { Self.sameBytes(comparison.new, $0) }
        }
    }

    /// Whether an item holds no byte: every representation's size is known to be 0.
    private static func holdsNothing(_ item: StoredItem) -> Bool {
        item.representations.allSatisfy { representation in
            switch representation.content {
            case .data, .stored: representation.size == 0
            case .promise, .file, .unavailable: false
            }
        }
    }

    private enum Match {
        case equal
        case different
        /// Equal only if these contents' bytes, read from their files, are.
        case toRead([StoredRepresentation.Content])
    }

    /// How `representation` compares with `old`: equal when one of them holds the same bytes in
    /// memory, is the same stored file or the same file path; to be read when some hold as many
    /// bytes in a stored file (the same first bytes, kept in memory, checked first).
    private static func match(_ representation: StoredRepresentation, among old: [StoredRepresentation]) -> Match {
        var toRead: [StoredRepresentation.Content] = []
        for candidate in old where candidate.size != nil && candidate.size == representation.size {
            switch (representation.content, candidate.content) {
            case (.data(let a), .data(let b)):
                if StoredItem.equalBytes(a, b) { return .equal }
            case (.stored(let a), .stored(let b)):
                if a === b { return .equal }
                if a.head == b.head { toRead.append(candidate.content) }
            case (.data(let a), .stored(let b)), (.stored(let b), .data(let a)):
                if prefix(of: a, count: b.head.count) == b.head { toRead.append(candidate.content) }
            case (.file(let a, _), .file(let b, _)):
                if a == b { return .equal }
            default:
                continue
            }
        }
        return toRead.isEmpty ? .different : .toRead(toRead)
    }

    /// The first `count` bytes of `chunks`.
    private static func prefix(of chunks: [ByteBuffer], count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for chunk in chunks where bytes.count < count {
            bytes += chunk.getBytes(at: chunk.readerIndex, length: min(count - bytes.count, chunk.readableBytes)) ?? []
        }
        return bytes
    }

    /// Whether two contents of the same size hold the same bytes, read in steps.
    private static func sameBytes(_ a: StoredRepresentation.Content, _ b: StoredRepresentation.Content) -> Bool {
        guard var left = ContentReader(a), var right = ContentReader(b) else { return false }
        defer { left.finish(); right.finish() }
        while true {
            guard let x = left.next(), let y = right.next() else { return false }
            if x.isEmpty || y.isEmpty { return x.isEmpty && y.isEmpty }
            let count = min(x.count, y.count)
            guard x.prefix(count) == y.prefix(count) else { return false }
            left.putBack(x.dropFirst(count))
            right.putBack(y.dropFirst(count))
        }
    }
}

/// The bytes of held data or a stored file, a step at a time (for `TransientCopy`).
private struct ContentReader {
    private var chunks: [ByteBuffer] = []
    private var fd: Int32 = -1
    private var pending: ArraySlice<UInt8> = []

    init?(_ content: StoredRepresentation.Content) {
        switch content {
        case .data(let chunks): self.chunks = chunks
        case .stored(let file):
            guard let fd = try? file.openForReading() else { return nil }
            self.fd = fd
        default: return nil
        }
    }

    /// The next bytes; empty at the end, nil on a read error.
    mutating func next() -> ArraySlice<UInt8>? {
        if !pending.isEmpty {
            defer { pending = [] }
            return pending
        }
        if fd < 0 {
            guard !chunks.isEmpty else { return [] }
            let chunk = chunks.removeFirst()
            return chunk.readableBytes == 0 ? next() : ArraySlice(chunk.readableBytesView)
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            return buffer[..<count]
        }
    }

    /// Bytes taken by `next` but not compared yet: the next `next` returns them first.
    mutating func putBack(_ bytes: ArraySlice<UInt8>) {
        pending = bytes
    }

    /// Closes the stored file, if one was read.
    mutating func finish() {
        if fd >= 0 { close(fd) }
        fd = -1
    }
}

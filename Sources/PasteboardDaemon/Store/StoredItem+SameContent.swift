#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NIOCore

extension StoredItem {
    /// True when `other` offers the same content: the same suggested name and visibility, and
    /// the same representations in the same order, each with equal bytes held in memory, the same
    /// stored file, or the same file path. A
    /// promise equals nothing, since its bytes are not known yet. The writer does not matter.
    func hasSameContent(as other: StoredItem) -> Bool {
        guard suggestedName == other.suggestedName, visibility == other.visibility,
              representations.count == other.representations.count
        else { return false }
        return zip(representations, other.representations).allSatisfy { mine, theirs in
            guard mine.type == theirs.type else { return false }
            switch (mine.content, theirs.content) {
            case (.data(let a), .data(let b)):
                return Self.equalBytes(a, b)
            case (.stored(let a), .stored(let b)):
                // The same stored file; two stored copies of the same bytes are not compared (it
                // would read both back from disk on every copy), so they stay two entries.
                return a === b
            case (.file(let a, let aInPlace), .file(let b, let bInPlace)):
                return a == b && aInPlace == bInPlace
            default:
                return false
            }
        }
    }

    /// Whether two runs of chunks hold the same bytes, however they are split.
    static func equalBytes(_ a: [ByteBuffer], _ b: [ByteBuffer]) -> Bool {
        guard a.reduce(0, { $0 + $1.readableBytes }) == b.reduce(0, { $0 + $1.readableBytes }) else { return false }
        var left = a.makeIterator(), right = b.makeIterator()
        var x = left.next(), y = right.next()
        while var first = x, var second = y {
            if first.readableBytes == 0 { x = left.next(); continue }
            if second.readableBytes == 0 { y = right.next(); continue }
            let count = min(first.readableBytes, second.readableBytes)
            let same = first.withUnsafeReadableBytes { p in
                second.withUnsafeReadableBytes { q in memcmp(p.baseAddress!, q.baseAddress!, count) == 0 }
            }
            guard same else { return false }
            first.moveReaderIndex(forwardBy: count)
            second.moveReaderIndex(forwardBy: count)
            x = first
            y = second
        }
        return true
    }
}

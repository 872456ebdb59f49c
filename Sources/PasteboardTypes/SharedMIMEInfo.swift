#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The subclass and alias data of a freedesktop.org shared-mime-info database.
///
/// shared-mime-info (`update-mime-database`) writes, into each `<data dir>/mime` directory, a
/// `subclasses` file with one `child parent` pair per line and an `aliases` file with one
/// `alias canonical` pair per line. A ``TypeRegistry`` uses them for MIME types nobody declared:
/// `text/x-python` then conforms to what its parents conform to, instead of only to
/// `public.text`. See ``TypeRegistry/usingSharedMIMEInfo(from:)``.
///
/// Parsing is forgiving: blank lines and lines starting with `#` are skipped, and so is every
/// line that is not exactly two well-formed MIME types separated by spaces or tabs. MIME types
/// are lowercased. An empty value (nothing read) leaves conformance exactly as without one.
public struct SharedMIMEInfo: Sendable, Equatable {
    /// The direct parents of each MIME type, in file order, without duplicates.
    private var parentLists: [String: [String]] = [:]
    /// The canonical MIME type of each alias.
    private var canonicalTypes: [String: String] = [:]

    /// A database that knows nothing.
    public init() {}

    /// Parses the contents of a `subclasses` and an `aliases` file.
    ///
    /// A MIME type may have several parents (one line each). When an alias is listed twice, the
    /// first line wins. Complexity: O(n) in the length of the text.
    public init(subclasses: String, aliases: String) {
        self.init(subclasses: Data(subclasses.utf8), aliases: Data(aliases.utf8))
    }

    /// Parses the bytes of a `subclasses` and an `aliases` file, as the `String` initializer does
    /// (lines with bytes that are not UTF-8 give names that never match a MIME type in use).
    init(subclasses: Data, aliases: Data) {
        for (child, parent) in Self.pairs(in: subclasses) where child != parent {
            if !parentLists[child, default: []].contains(parent) { parentLists[child, default: []].append(parent) }
        }
        for (alias, canonical) in Self.pairs(in: aliases) where alias != canonical && canonicalTypes[alias] == nil {
            canonicalTypes[alias] = canonical
        }
    }

    /// Whether the database knows no subclass and no alias.
    public var isEmpty: Bool { parentLists.isEmpty && canonicalTypes.isEmpty }

    /// The direct parents the database lists for `mime` (lowercased, without parameters), in file order.
    ///
    /// The implicit rules (every `text/*` is a `text/plain`, everything is an
    /// `application/octet-stream`) are not included; ``TypeRegistry`` applies them.
    public func parents(of mime: String) -> [String] {
        parentLists[mime] ?? []
    }

    /// The canonical MIME type when `mime` (lowercased, without parameters) is an alias, else `nil`.
    public func canonicalType(ofAlias mime: String) -> String? {
        canonicalTypes[mime]
    }

    /// `self` plus the entries of `other` for MIME types `self` says nothing about.
    ///
    /// Used to combine the databases of several directories, the more important one first (a
    /// MIME type's parents all come from the first database that lists any, and an alias from the
    /// first that names it), and a database's aliases with its subclasses.
    func merging(_ other: SharedMIMEInfo) -> SharedMIMEInfo {
        var result = self
        result.parentLists.merge(other.parentLists) { mine, _ in mine }
        result.canonicalTypes.merge(other.canonicalTypes) { mine, _ in mine }
        return result
    }

    /// The `first second` pairs of the well-formed lines of `bytes`, lowercased.
    ///
    /// Works on bytes rather than characters: `pb` may parse the system's `aliases` (about 12 KB)
    /// on a command's start-up path, where grapheme-aware splitting is several times slower.
    static func pairs(in bytes: Data) -> [(String, String)] {
        bytes.withUnsafeBytes { bytes in
            var result: [(String, String)] = []
            var lineStart = 0
            while lineStart < bytes.count {
                let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                let fields = Self.fields(of: bytes[lineStart..<lineEnd], atMost: 3)
                if fields.count == 2, fields[0].first != UInt8(ascii: "#"),
                    let first = Self.mimeType(fields[0]), let second = Self.mimeType(fields[1])
                {
                    result.append((first, second))
                }
                lineStart = lineEnd + 1
            }
            return result
        }
    }

    /// The runs of `line` between spaces, tabs and carriage returns; stops after `limit` runs.
    private static func fields(of line: Slice<UnsafeRawBufferPointer>, atMost limit: Int) -> [Slice<UnsafeRawBufferPointer>] {
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") }
        var fields: [Slice<UnsafeRawBufferPointer>] = []
        var index = line.startIndex
        while index < line.endIndex, fields.count < limit {
            guard let start = line[index...].firstIndex(where: { !isBlank($0) }) else { break }
            let end = line[start...].firstIndex(where: isBlank) ?? line.endIndex
            fields.append(line[start..<end])
            index = end
        }
        return fields
    }

    /// `field` lowercased when it is a well-formed `type/subtype`, else nil.
    private static func mimeType(_ field: Slice<UnsafeRawBufferPointer>) -> String? {
        let mime = String(decoding: field, as: UTF8.self).lowercased()
        return MIMEType.isWellFormed(mime) ? mime : nil
    }
}

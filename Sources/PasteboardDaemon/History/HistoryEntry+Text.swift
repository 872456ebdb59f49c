import NIOCore
import PasteboardTypes

extension HistoryEntry {
    /// The most characters a preview has.
    static let previewLength = 100

    /// Whether `type` is text the history reads for previews and searches: a type conforming to
    /// `public.text`, read as UTF-8 (so not `public.utf16-plain-text`).
    static func isText(_ type: TypeIdentifier, registry: TypeRegistry) -> Bool {
        registry.conforms(type, to: .text) && !registry.conforms(type, to: .utf16PlainText)
    }

    /// The start of the entry's text: of the first item with text held as data, the
    /// representation `pb paste -t text` would get (plain text first, else any text), up to
    /// `previewLength` characters.
    func preview(registry: TypeRegistry) -> String? {
        for item in items {
            let texts = item.representations.filter { representation in
                Self.heldText(representation) != nil && Self.isText(representation.type, registry: registry)
            }
            guard let index = registry.chooseRepresentation(among: texts.map(\.type), accepting: [.plainText, .text]),
                  let held = Self.heldText(texts[index])
            else { continue }
            // A character takes at most 4 bytes in UTF-8; one cut in half at the end is dropped.
            let limit = Self.previewLength * 4
            let bytes = Self.bytes(held, upTo: limit + 1)
            var text = String(decoding: bytes.prefix(limit), as: UTF8.self)
            if bytes.count > limit, text.last == "\u{FFFD}" { text.removeLast() }
            return String(text.prefix(Self.previewLength))
        }
        return nil
    }

    /// Whether a text representation held as data, of any item, contains `needle` (already
    /// lowercased), ignoring case; of stored text, its first 4 KiB are searched (`heldText`).
    func containsText(_ needle: String, registry: TypeRegistry) -> Bool {
        items.contains { item in
            item.representations.contains { representation in
                guard let held = Self.heldText(representation), Self.isText(representation.type, registry: registry) else { return false }
                let text = String(decoding: Self.bytes(held, upTo: Int.max), as: UTF8.self)
                return text.lowercased().contains(needle)
            }
        }
    }

    /// The bytes of a representation the daemon holds that previews and searches read: all of
    /// them when held in memory; for stored bytes, their first `SpoolPolicy.headLength` (4 KiB)
    /// kept in memory, so a search never reads a stored file back from disk. Nil for a promise,
    /// a file or an unavailable representation.
    static func heldText(_ representation: StoredRepresentation) -> [ByteBuffer]? {
        switch representation.content {
        case .data(let chunks): chunks
        case .stored(let file): [ByteBuffer(bytes: file.head)]
        case .promise, .file, .unavailable: nil
        }
    }

    /// The first `limit` bytes of `chunks`, in one array.
    private static func bytes(_ chunks: [ByteBuffer], upTo limit: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for chunk in chunks where bytes.count < limit {
            bytes += chunk.readableBytesView.prefix(limit - bytes.count)
        }
        return bytes
    }
}

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
                if case .data = representation.content { return Self.isText(representation.type, registry: registry) }
                return false
            }
            guard let index = registry.chooseRepresentation(among: texts.map(\.type), accepting: [.plainText, .text]),
                  case .data(let chunks) = texts[index].content
            else { continue }
            // A character takes at most 4 bytes in UTF-8; one cut in half at the end is dropped.
            let limit = Self.previewLength * 4
            let bytes = Self.bytes(chunks, upTo: limit + 1)
            var text = String(decoding: bytes.prefix(limit), as: UTF8.self)
            if bytes.count > limit, text.last == "\u{FFFD}" { text.removeLast() }
            return String(text.prefix(Self.previewLength))
        }
        return nil
    }

    /// Whether a text representation held as data, of any item, contains `needle` (already
    /// lowercased), ignoring case.
    func containsText(_ needle: String, registry: TypeRegistry) -> Bool {
        items.contains { item in
            item.representations.contains { representation in
                guard case .data(let chunks) = representation.content, Self.isText(representation.type, registry: registry) else { return false }
                let text = String(decoding: Self.bytes(chunks, upTo: Int.max), as: UTF8.self)
                return text.lowercased().contains(needle)
            }
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

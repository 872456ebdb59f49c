#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PasteboardProtocol

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PasteboardSystem

/// Renderings of history entries for `pb history` and `pb history search`.
enum HistoryFormatting {
    /// The most characters of the preview a line shows.
    static let previewLength = 60

    /// One JSON array.
    static func json(_ entries: [HistoryEntryInfo]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(entries)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// `INDEX  TIME  TYPES  SIZE  [(from MACHINE)]  PREVIEW`: the local time to the second, each
    /// item's types joined by commas (items separated by spaces), the size, the machine a linked
    /// content came from, and the text on one line (white space runs shown as one space, cut at
    /// `previewLength` characters with `…`); without text, the first item's suggested name in
    /// brackets, if it has one.
    static func line(_ entry: HistoryEntryInfo) -> String {
        let types = entry.items.map { $0.representations.map(\.type).joined(separator: ",") }.joined(separator: " ")
        var fields = [String(entry.index), localTime(entry.time), types, ByteCount.describe(entry.size)]
        if let origin = entry.origin { fields.append("(from \(oneLine(origin.machineLabel)))") }
        if let preview = entry.preview.map(oneLine), !preview.isEmpty {
            fields.append(preview)
        } else if let name = entry.items.first?.suggestedName {
            fields.append("[\(name)]")
        }
        return fields.joined(separator: "  ")
    }

    /// `text` on one line: white space and control characters collapsed into single spaces,
    /// trimmed, cut at `previewLength` characters.
    static func oneLine(_ text: String) -> String {
        var line = ""
        var pendingSpace = false
        for character in text {
            if character.isWhitespace || character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) {
                pendingSpace = !line.isEmpty
                continue
            }
            if pendingSpace { line.append(" ") }
            pendingSpace = false
            line.append(character)
            if line.count > previewLength { break }
        }
        guard line.count > previewLength else { return line }
        return String(line.prefix(previewLength - 1)) + "…"
    }

    /// `seconds` since 1970 as local time, `YYYY-MM-DD HH:MM:SS`; `?` for a time no calendar
    /// shows (the number comes from the daemon, which read it from a file).
    static func localTime(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e15 else { return "?" }
        var time = time_t(seconds.rounded(.down))
        var parts = tm()
        localtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

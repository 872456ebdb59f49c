import PasteboardCLI
import PasteboardProtocol

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Shared renderings of a pasteboard's summary.
enum ItemsFormatting {
    /// One line of JSON.
    static func json(_ reply: ItemsReply) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(reply)) ?? Data(), as: UTF8.self)
    }

    /// `changeCount` then each item's types joined by commas; `(empty)` when there are none,
    /// `(sensitive)` when an item is a secret (nothing about it is shown).
    static func line(_ reply: ItemsReply) -> String {
        if reply.items.contains(where: \.isSensitive) { return "\(reply.changeCount) (sensitive)" }
        let items = reply.items.map { $0.representations.map(\.type).joined(separator: ",") }
        return "\(reply.changeCount) " + (items.isEmpty ? "(empty)" : items.joined(separator: " "))
    }
}

import ArgumentParser
import Pasteboard
import PasteboardProtocol

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `pb list`: the change count and every item's representations.
struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a pasteboard's change count and each item's representations (type, MIME type, size)."
    )

    @OptionGroup var options: PasteboardOptions

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let contents = try await options.withPasteboard { try await $0.contents() }
        if json {
            try Output.printLine(ItemsFormatting.json(contents))
            return
        }
        try Output.printLine("changeCount: \(contents.changeCount)")
        if contents.items.isEmpty { try Output.printLine("(empty)") }
        for (index, item) in contents.items.enumerated() {
            try Output.printLine("item \(index)" + (item.suggestedName.map { ": \($0)" } ?? ""))
            for representation in item.representations {
                let size = representation.size.map { "\($0) bytes" } ?? "size unknown"
                try Output.printLine("  \(representation.type)  \(representation.mimeType ?? "-")  \(size)")
            }
        }
    }
}

/// Shared renderings of a pasteboard's summary.
enum ItemsFormatting {
    /// One line of JSON.
    static func json(_ reply: ItemsReply) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(reply)) ?? Data(), as: UTF8.self)
    }

    /// `changeCount` then each item's types joined by commas; `(empty)` when there are none.
    static func line(_ reply: ItemsReply) -> String {
        let items = reply.items.map { $0.representations.map(\.type).joined(separator: ",") }
        return "\(reply.changeCount) " + (items.isEmpty ? "(empty)" : items.joined(separator: " "))
    }
}

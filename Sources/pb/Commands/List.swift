import ArgumentParser
import Pasteboard
import PasteboardCLI
import PasteboardProtocol

/// `pb list`: the change count and every item's representations.
struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show a pasteboard's change count and each item's representations (type, MIME type, size).",
        discussion: """
            A representation marked (lazy) is produced by its live source when loaded; one marked \
            (unavailable) lost its source before the data was handed over.
            """
    )

    @OptionGroup var options: PasteboardOptions

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let contents = try await options.withPasteboard { try await $0.contentsReply() }
        if json {
            try Output.printLine(ItemsFormatting.json(contents))
            return
        }
        try Output.printLine("changeCount: \(contents.changeCount)")
        if contents.items.isEmpty { try Output.printLine("(empty)") }
        for (index, item) in contents.items.enumerated() {
            try Output.printLine("item \(index)" + (item.suggestedName.map { ": \($0)" } ?? "") + (item.isSensitive ? "  (sensitive)" : ""))
            for representation in item.representations {
                let size = representation.size.map { "\($0) bytes" } ?? "size unknown"
                let state = representation.unavailable == true ? "  (unavailable)" : representation.lazy == true ? "  (lazy)" : ""
                try Output.printLine("  \(representation.type)  \(representation.mimeType ?? "-")  \(size)\(state)")
            }
        }
    }
}

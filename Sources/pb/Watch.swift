import ArgumentParser
import Pasteboard
import PasteboardCLI

/// `pb watch`: one line per change of a pasteboard until interrupted.
struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print one line per change of a pasteboard until interrupted.",
        discussion: """
            The first line describes the current content. Each line is the change count, then each \
            item's types joined by commas, items separated by spaces ('(empty)' when cleared, \
            '(sensitive)' when the new content is a secret). \
            With --json, each line is a JSON object.
            """
    )

    @OptionGroup var options: PasteboardOptions

    @Flag(name: .long, help: "Print each change as one line of JSON.")
    var json = false

    func run() async throws {
        try await options.withPasteboard { pasteboard in
            for try await change in pasteboard.changes() {
                try Output.printLine(json ? ItemsFormatting.json(change) : ItemsFormatting.line(change))
            }
        }
    }
}

import ArgumentParser
import Pasteboard
import PasteboardCLI

/// `pb history search TEXT`: the history entries whose text contains TEXT.
struct HistorySearch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "List the history entries whose text contains TEXT, ignoring case.",
        discussion: """
            Entries are listed as pb history lists them, with their indices in the whole history, \
            so that pb history restore takes them. Every text representation the daemon holds is \
            searched (types conforming to public.text, read as UTF-8; not files). Exits 1 when no \
            entry matches.
            """
    )

    @OptionGroup var output: HistoryOutput

    @Argument(help: ArgumentHelp("The text to look for.", valueName: "text"))
    var text: String

    func validate() throws {
        if text.isEmpty { throw ValidationError("give some text to search for") }
    }

    func run() async throws {
        let text = text
        let entries = try await PasteboardConnection.withConnection(clientName: "pb") { connection in
            try await PasteboardHistory(connection: connection).searchInfos(text)
        }
        if output.json {
            try Output.printLine(HistoryFormatting.json(entries))
        } else {
            for entry in entries { try Output.printLine(HistoryFormatting.line(entry)) }
        }
        if entries.isEmpty { throw CLIError.failure("no history entry contains '\(text)'") }
    }
}

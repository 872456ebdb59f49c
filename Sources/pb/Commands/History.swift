import ArgumentParser
import Pasteboard
import PasteboardCLI

/// `pb history`: the general pasteboard's earlier contents, newest first; its subcommands
/// restore, search and clear them.
struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the general pasteboard's history: the contents copied to it, newest first.",
        discussion: """
            Each line is an entry: its index (0 is the newest), the time it was copied, each item's \
            types joined by commas (items separated by spaces), its size, and the start of its text \
            on one line. Entry 0 is the current content unless the pasteboard was cleared or \
            overwritten since by something the history does not keep.

            Sensitive copies (--sensitive, or a password manager's marker) never enter the history, \
            nor do copies that expire, items visible only to their writer, or content larger than \
            the history's byte budget. Copying content equal to an entry's moves that entry to the \
            top. pasteboardd --history-items and --history-bytes bound it; the oldest entries leave \
            first. A live source's lazy data is kept only once it is handed over to the daemon. A \
            transient copy (replaced within pasteboardd --history-transient-seconds by what it \
            replaced, or by nothing, as pass -c replaces the password it copied) leaves the history \
            and the disk.
            """,
        subcommands: [HistoryRestore.self, HistorySearch.self, HistoryClear.self]
    )

    @OptionGroup var output: HistoryOutput

    func run() async throws {
        let entries = try await PasteboardConnection.withConnection(clientName: "pb") { connection in
            try await PasteboardHistory(connection: connection).entryInfos()
        }
        if output.json {
            try Output.printLine(HistoryFormatting.json(entries))
            return
        }
        if entries.isEmpty { try Output.printLine("(empty)") }
        for entry in entries { try Output.printLine(HistoryFormatting.line(entry)) }
    }
}

/// The output option of `pb history` and `pb history search`, shared so `--json` may come
/// before or after the subcommand's name.
struct HistoryOutput: ParsableArguments {
    @Flag(name: .long, help: "Print the entries as one JSON array instead of text.")
    var json = false
}

import ArgumentParser
import Pasteboard
import PasteboardCLI

/// `pb history restore N`: make a history entry the general pasteboard's content again.
struct HistoryRestore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Make history entry N the general pasteboard's content again.",
        discussion: """
            The entry becomes the current content with a new change count, as a copy would (pb \
            paste then gives it, and watchers see the change), and moves to the top of the \
            history as entry 0. An index the history does not have is an error, and nothing changes.
            """
    )

    @Argument(help: ArgumentHelp("The entry's index, as pb history lists it (0 is the newest).", valueName: "n"))
    var index: Int

    func validate() throws {
        if index < 0 { throw ValidationError("the index must be 0 or more") }
    }

    func run() async throws {
        let index = index
        try await PasteboardConnection.withConnection(clientName: "pb") { connection in
            _ = try await PasteboardHistory(connection: connection).restore(index)
        }
    }
}

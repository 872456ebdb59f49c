import ArgumentParser
import Pasteboard
import PasteboardCLI

/// `pb history clear`: forget the general pasteboard's history.
struct HistoryClear: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Forget every history entry, in memory and on disk; the current content stays."
    )

    func run() async throws {
        try await PasteboardConnection.withConnection(clientName: "pb") { connection in
            try await PasteboardHistory(connection: connection).clear()
        }
    }
}

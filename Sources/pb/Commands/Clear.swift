import ArgumentParser
import Pasteboard
import PasteboardCLI

/// `pb clear`: remove every item from a pasteboard.
struct Clear: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Remove every item from a pasteboard.")

    @OptionGroup var options: PasteboardOptions

    func run() async throws {
        try await options.withPasteboard { try await $0.clear() }
    }
}

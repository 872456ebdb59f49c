import ArgumentParser
import Pasteboard
import PasteboardCLI
import PasteboardSystem

/// The option every subcommand shares: which named pasteboard.
struct PasteboardOptions: ParsableArguments {
    @Option(name: [.customShort("p"), .customLong("pasteboard")],
            help: ArgumentHelp("The named pasteboard to use.", valueName: "name"))
    var pasteboard: String = PasteboardName.general

    func validate() throws {
        if let failure = PasteboardName.validationFailure(pasteboard) { throw ValidationError(failure) }
    }

    /// Connects to the daemon (starting it if needed) and runs `body` with the named pasteboard.
    @discardableResult
    func withPasteboard<Result: Sendable>(_ body: (Pasteboard) async throws -> Result) async throws -> Result {
        try await Self.withPasteboard(named: pasteboard, body)
    }

    /// Connects to the daemon (starting it if needed) and runs `body` with the pasteboard `name`.
    @discardableResult
    static func withPasteboard<Result: Sendable>(named name: String, _ body: (Pasteboard) async throws -> Result) async throws -> Result {
        try await PasteboardConnection.withConnection(clientName: "pb") { connection in
            try await body(Pasteboard(name: name, connection: connection))
        }
    }
}

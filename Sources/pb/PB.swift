import ArgumentParser
import Pasteboard

#if canImport(Glibc)
import Glibc
#endif

/// `pb`: copy and paste through pasteboardd from the shell.
@main
struct PB: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pb",
        abstract: "Copy, paste, list and watch named pasteboards through pasteboardd.",
        discussion: """
            pb talks to the daemon on $PASTEBOARD_SOCKET (default $XDG_RUNTIME_DIR/pasteboard/pasteboardd.sock) \
            and starts pasteboardd itself when nothing listens there.

            Exit status: 0 success, 1 failure, 2 usage error, 3 daemon unreachable.
            """,
        subcommands: [Copy.self, Paste.self, List.self, Clear.self, Watch.self, Types.self]
    )

    /// Runs the command, mapping every failure to one line on stderr and pb's exit codes.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(status: ExitStatus.finish(error))
        }
    }

    private static func exit(status: Int32) -> Never {
        Glibc.exit(status)
    }
}

/// pb's exit codes and how errors map to them.
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 2
    static let unreachable: Int32 = 3

    /// Prints `error` (or help) as the user should see it and returns the exit code.
    static func finish(_ error: any Error) -> Int32 {
        switch error {
        case let error as CLIError:
            if !error.message.isEmpty { Output.printError("pb: \(error.message)") }
            return error.status
        case let error as PasteboardError:
            Output.printError("pb: \(error)")
            if case .daemonUnreachable = error { return unreachable }
            return failure
        default:
            let code = PB.exitCode(for: error)
            if code == .success {
                Output.printOut(PB.fullMessage(for: error))
                return success
            }
            Output.printError(PB.fullMessage(for: error))
            // ArgumentParser reports usage errors as EX_USAGE (64); pb's contract says 2.
            return code.rawValue == ExitCode.validationFailure.rawValue ? usage : code.rawValue
        }
    }
}

/// A failure pb reports itself, with its exit code.
struct CLIError: Error {
    let message: String
    let status: Int32

    /// A runtime failure (exit 1).
    static func failure(_ message: String) -> CLIError { CLIError(message: message, status: ExitStatus.failure) }
    /// Bad command-line input (exit 2).
    static func usage(_ message: String) -> CLIError { CLIError(message: message, status: ExitStatus.usage) }
    /// Exit 1 with nothing printed (the reason was already shown, or there is none to show).
    static let quietFailure = CLIError(message: "", status: ExitStatus.failure)
}

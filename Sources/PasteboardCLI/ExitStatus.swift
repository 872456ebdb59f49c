public import ArgumentParser
import Pasteboard

/// The exit codes of pb and gallery, and how errors map to them.
public enum ExitStatus {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 2
    /// The daemon cannot be reached: nothing listens and none could be started, or the socket
    /// belongs to another user (`PasteboardError.untrustedSocket`).
    public static let unreachable: Int32 = 3
    /// Interrupted by SIGINT/SIGTERM (128 + SIGINT, as shells report it).
    public static let interrupted: Int32 = 130

    /// ArgumentParser's message in the tool's one style: `NAME: message` (its first letter made
    /// lower case, as the tool's own messages are), not `Error: Message`; the usage lines that
    /// follow it stay.
    static func ownStyle(_ message: String, name: String) -> String {
        guard message.hasPrefix("Error: ") else { return message }
        var rest = message.dropFirst("Error: ".count)
        if let first = rest.first, first.isUppercase, rest.dropFirst().first?.isLowercase == true {
            rest = first.lowercased() + rest.dropFirst()
        }
        return "\(name): " + rest
    }

    /// Prints `error` (or help) as the user of `Command` should see it and returns the exit code.
    public static func finish<Command: ParsableCommand>(_ error: any Error, command: Command.Type) -> Int32 {
        let name = Command.configuration.commandName ?? "\(Command.self)"
        switch error {
        case is CancellationError:
            Output.printError("\(name): cancelled")
            return interrupted
        case let error as CLIError:
            if !error.message.isEmpty { Output.printError("\(name): \(TypeWording.plain(error.message))") }
            return error.status
        case let error as PasteboardError:
            Output.printError("\(name): \(TypeWording.plain(error.description))")
            // A socket of another user is no daemon of ours: as unreachable as none at all.
            switch error {
            case .daemonUnreachable, .untrustedSocket: return unreachable
            default: break
            }
            return failure
        default:
            let code = Command.exitCode(for: error)
            if code == .success {
                Output.printOut(Command.fullMessage(for: error))
                return success
            }
            Output.printError(ownStyle(Command.fullMessage(for: error), name: name))
            // ArgumentParser reports usage errors as EX_USAGE (64); the contract says 2.
            return code.rawValue == ExitCode.validationFailure.rawValue ? usage : code.rawValue
        }
    }
}

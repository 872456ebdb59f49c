import ArgumentParser
import Pasteboard

/// pb's exit codes and how errors map to them.
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 2
    static let unreachable: Int32 = 3
    /// Interrupted by SIGINT/SIGTERM (128 + SIGINT, as shells report it).
    static let interrupted: Int32 = 130

    /// Prints `error` (or help) as the user should see it and returns the exit code.
    static func finish(_ error: any Error) -> Int32 {
        switch error {
        case is CancellationError:
            Output.printError("pb: cancelled")
            return interrupted
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

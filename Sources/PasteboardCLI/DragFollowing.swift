import ArgumentParser
import Pasteboard
import PasteboardProtocol

/// What `pb drag` and `gallery drag` share: reading `--allow`, following a session to its end
/// on stderr, and reporting the outcome on stdout with the exit status.
public enum DragFollowing {
    /// The operations of an `--allow` value: `copy`, `move` or `copy,move`.
    public static func operations(_ allow: String) throws -> Set<DragOperation> {
        var result: Set<DragOperation> = []
        for word in allow.split(separator: ",", omittingEmptySubsequences: false) {
            guard let operation = DragOperation(rawValue: String(word)) else {
                throw ValidationError("--allow takes copy, move or copy,move, not '\(allow)'")
            }
            result.insert(operation)
        }
        return result
    }

    /// Prints `lifted` (the session's id, for whoever drops it) once SIGINT and SIGTERM are
    /// caught, then waits for the session's end, printing its events on stderr as `tool: event`
    /// (only the end unless `verbose`). An interrupt abandons the session.
    public static func followToEnd(_ session: DragSession, tool: String, lifted: String, verbose: Bool) async throws -> DragEvent {
        try await Signals.cancellingOnInterrupt {
            Output.printError("\(tool): \(lifted)")
            return try await session.outcome { event in
                if verbose || event.isTerminal { Output.printError("\(tool): \(event)") }
            }
        }
    }

    /// Prints the performed operation (`copy`, `move`) or `cancelled` / `failed` on stdout;
    /// throws a quiet failure (exit 1) unless the session was dropped and finished.
    public static func report(_ end: DragEvent) throws {
        switch end {
        case .finished(let operation, _, _):
            Output.printOut(operation.rawValue)
        case .cancelled:
            Output.printOut("cancelled")
            throw CLIError.quietFailure
        default:
            Output.printOut("failed")
            throw CLIError.quietFailure
        }
    }
}

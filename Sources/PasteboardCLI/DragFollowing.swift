import ArgumentParser
public import Pasteboard
import Synchronization

/// Set once the session following saw a drop.
private final class DroppedFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
}

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

    /// Lifts items into a session (`lift`, on a connection `connect` opens) prints `lifted` (the
    /// session's id, for whoever drops it) once SIGINT and SIGTERM are caught, then waits for the
    /// session's end, printing its events on stderr as `tool: event` (only the end unless
    /// `verbose`). An interrupt abandons the session. When the daemon goes away before anyone dropped the session (it
    /// was killed or restarted), the session is gone with it: this reconnects with backoff and
    /// lifts the items again in a new session, printing its id. A session already dropped ends
    /// `failed` instead, as does one to which `retry` is false (items added to another's session).
    public static func liftAndFollow(
        tool: String, verbose: Bool, retry: Bool = true, backoff: LiveSource.Backoff = .standard,
        connect: ((PasteboardConnection) async throws -> DragEvent) async throws -> DragEvent,
        lift: @escaping @Sendable (PasteboardConnection) async throws -> DragSession,
        lifted: @escaping @Sendable (DragSession) -> String
    ) async throws -> DragEvent {
        var liftedOnce = false
        var failures = 0
        while true {
            let dropped = DroppedFlag()
            do {
                return try await connect { connection in
                    let session = try await lift(connection)
                    if liftedOnce { Output.printError("\(tool): reconnected to pasteboardd; the items are lifted again") }
                    liftedOnce = true
                    failures = 0
                    return try await Signals.cancellingOnInterrupt {
                        Output.printError("\(tool): \(lifted(session))")
                        return try await session.outcome { event in
                            if case .dropped = event { dropped.set() }
                            if verbose || event.isTerminal { Output.printError("\(tool): \(TypeWording.plain("\(event)"))") }
                        }
                    }
                }
            } catch let error as PasteboardError where liftedOnce && error.isTransient {
                guard retry, !dropped.isSet else { return .failed("lost pasteboardd: \(error)") }
                failures += 1
                let delay = backoff.delay(afterFailures: failures)
                if failures == 1 { Output.printError("\(tool): lost pasteboardd (\(error)); reconnecting") }
                do {
                    try await Signals.cancellingOnInterrupt { try await Task.sleep(for: delay) }
                } catch {
                    return .cancelled("interrupted while waiting for pasteboardd")
                }
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

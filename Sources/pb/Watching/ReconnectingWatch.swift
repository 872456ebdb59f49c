import Pasteboard
import PasteboardCLI

/// `pb watch` across daemon restarts, as `pb copy --lazy` and `pb drag` survive them: when the
/// daemon goes away (stopped, restarted, killed), pb says so on stderr, reconnects with backoff
/// (starting the daemon if nothing listens, as every pb command does) and watches again, so a
/// clipboard hook does not silently stop.
struct ReconnectingWatch {
    /// The named pasteboard.
    let pasteboard: String
    /// The delays between reconnection attempts.
    var backoff = LiveSource.Backoff.standard

    /// Runs `body` with the pasteboard on each connection until it returns (the watch's end) or
    /// throws what retrying cannot cure. Failures of the first connection are thrown, as for any
    /// command; after that, a lost connection or an unreachable daemon means reconnecting.
    /// `position.resume()` is called before each reconnected run.
    func run(position: WatchPosition, _ body: (Pasteboard) async throws -> Void) async throws {
        var connected = false
        var failures = 0
        while true {
            do {
                try await PasteboardOptions.withPasteboard(named: pasteboard) { board in
                    if connected {
                        position.resume()
                        Output.printError("pb: reconnected to pasteboardd; watching \(pasteboard) again")
                    }
                    connected = true
                    failures = 0
                    try await body(board)
                }
                return
            } catch let error as PasteboardError where connected && error.isTransient {
                failures += 1
                if failures == 1 { Output.printError("pb: lost pasteboardd (\(Self.reason(error))); reconnecting") }
                try await Task.sleep(for: backoff.delay(afterFailures: failures))
            }
        }
    }

    /// Why the connection went, without repeating "lost the connection".
    private static func reason(_ error: PasteboardError) -> String {
        if case .connectionLost(let reason) = error { return reason }
        return error.description
    }
}

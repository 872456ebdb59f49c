import Pasteboard
import PasteboardCLI
import PasteboardProtocol
import PasteboardTypes

/// `pb watch --exec`: runs a command for the pasteboard's content and for each change, with
/// the content on its stdin and `PASTEBOARD_STATE` in its environment, one run at a time.
///
/// A change that comes while the command runs is not lost: when the run ends, the command
/// runs once more for the latest content (the changes in between are coalesced).
struct WatchExec: Sendable {
    /// The command to run.
    let command: ExternalCommand
    /// The accepted types, most preferred first, negotiated as `pb paste -t` does; empty for
    /// the item's first representation.
    let accepted: [TypeIdentifier]
    /// Whether a sensitive item's content goes to the command too (by default its stdin is empty).
    let includeSensitive: Bool
    /// Whether each change and each run's end are reported on stderr.
    let verbose: Bool
    /// The environment the command inherits, before the `PASTEBOARD_*` variables are set.
    let environment: [String: String]
    /// Which variables tell the command the state: pb's `PASTEBOARD_*`, or wl-paste's
    /// `CLIPBOARD_STATE` (for `wl-paste --watch`).
    var convention: WatchConvention = .pasteboard

    /// Runs the command for the current content, then after each change, until the task is
    /// cancelled (a run in progress is stopped first) or the connection to the daemon ends.
    /// Changes `position` does not take for news (the unchanged content after a reconnect) do
    /// not run it.
    func run(on pasteboard: Pasteboard, position: WatchPosition) async throws {
        let (latest, continuation) = AsyncThrowingStream.makeStream(of: ItemsReply.self, bufferingPolicy: .bufferingNewest(1))
        let verbose = verbose
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    for try await change in pasteboard.changes({ $0 }) where position.isNew(change.changeCount) {
                        if verbose { Output.printError("pb: change \(change.changeCount): \(PasteboardState(change).rawValue)") }
                        continuation.yield(change)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            var first = true
            for try await change in latest {
                try await runCommand(for: change, first: first, on: pasteboard)
                first = false
            }
            group.cancelAll()
        }
    }

    /// One run for `change`: the command gets the content on stdin (or an empty stdin for
    /// `clear`, and for `sensitive` unless `includeSensitive`). Throws when the command cannot
    /// be started, when the connection to the daemon is lost, and when cancelled (after the
    /// command has stopped).
    private func runCommand(for change: ItemsReply, first: Bool, on pasteboard: Pasteboard) async throws {
        let state = PasteboardState(change)
        var environment = environment
        for (name, value) in convention.variables(for: change, state: state, first: first) { environment[name] = value }
        let run = CommandRun(command)
        let (failure, termination) = await withTaskCancellationHandler {
            let failure = await start(run, for: state, environment: environment, from: pasteboard)
            // A command that got part of the content must not take it for the whole.
            if failure != nil { run.stop() }
            return (failure, await run.child?.waitForExit())
        } onCancel: {
            run.stop()
        }
        if Task.isCancelled { throw CancellationError() }
        let label = "pb: change \(change.changeCount)"
        if let failure {
            try report(failure, commandStarted: termination != nil, label: label)
        } else if let termination, (termination != .exited(0) && convention.reportsFailedRuns) || verbose {
            Output.printError("\(label): \(command.name) \(termination)")
        }
    }

    /// Starts the command and, for content it gets, loads it into its stdin; returns what went
    /// wrong, if anything (the command not reading all of it is not a failure).
    private func start(
        _ run: CommandRun, for state: PasteboardState, environment: [String: String], from pasteboard: Pasteboard
    ) async -> (any Error)? {
        do {
            guard state == .data || (state == .sensitive && includeSensitive) else {
                try run.start(environment: environment, input: nil)
                return nil
            }
            let input = try ChildInput()
            defer { input.finish() }
            try await pasteboard.load(item: 0, accepting: accepted, header: { header in
                var environment = environment
                if convention == .pasteboard { environment["PASTEBOARD_TYPE"] = header.type.rawValue }
                try run.start(environment: environment, input: input)
            }, chunk: { chunk in
                try await input.write(chunk.buffer)
            })
            return nil
        } catch is ChildInput.Closed {
            return nil
        } catch {
            return error
        }
    }

    /// Reports a run that failed on stderr, or rethrows what ends the watch: a command that
    /// cannot be started, a lost connection.
    private func report(_ failure: any Error, commandStarted: Bool, label: String) throws {
        guard let error = failure as? PasteboardError, case .daemon(let code, let message) = error else { throw failure }
        if commandStarted {
            Output.printError("\(label): the load failed (\(TypeWording.plain(message))); \(command.name) was stopped")
        } else if code == .noConformingRepresentation {
            if verbose { Output.printError("\(label): no representation conforms to the -t types; \(command.name) not run") }
        } else {
            Output.printError("\(label): cannot load the content (\(TypeWording.plain(message))); \(command.name) not run")
        }
    }
}

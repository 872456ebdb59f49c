#if canImport(Glibc)
import Glibc
#endif
public import ArgumentParser

/// The `main` of pb and gallery: parse, run, and turn every failure into one line on stderr
/// and the documented exit status.
public enum CommandRunner {
    /// Parses the process's arguments as `Command`, runs the chosen subcommand, and exits.
    public static func main<Command: ParsableCommand>(_ command: Command.Type) async -> Never {
        do {
            var parsed = try Command.parseAsRoot()
            if var asynchronous = parsed as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try parsed.run()
            }
        } catch {
            Glibc.exit(ExitStatus.finish(error, command: Command.self))
        }
        Glibc.exit(ExitStatus.success)
    }

    /// Runs `body` (which ends the process) on the global executor, and holds this thread until
    /// it does: a synchronous `main` then never reaches `dispatch_main`, whose `pthread_exit`
    /// of the main thread costs a static binary about 25 ms of unwinder set-up. Nothing that
    /// uses it runs on the main actor, which this thread therefore never serves.
    public static func runDetached(_ body: @escaping @Sendable () async -> Never) -> Never {
        Task.detached { await body() }
        while true { pause() }
    }

    /// Runs `body` on this thread; exits when it is done or failed (reporting the failure as
    /// `Command` would), else returns what `body` left to do.
    public static func runBlocking<Command: ParsableCommand, Remaining>(
        _ body: () throws -> Remaining?, reportingAs command: Command.Type
    ) -> Remaining {
        do {
            guard let remaining = try body() else { Glibc.exit(ExitStatus.success) }
            return remaining
        } catch {
            Glibc.exit(ExitStatus.finish(error, command: Command.self))
        }
    }

    /// Runs `body` (arguments already read) and exits, reporting failures as `Command` would.
    public static func run<Command: ParsableCommand>(_ body: () async throws -> Void, reportingAs command: Command.Type) async -> Never {
        do {
            try await body()
        } catch {
            Glibc.exit(ExitStatus.finish(error, command: Command.self))
        }
        Glibc.exit(ExitStatus.success)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Pasteboard
import PasteboardCLI

/// How a compatibility mode fails: a message in the original tool's words where scripts read
/// them (`No selection`, `Error: target STRING not available`), and the original's status.
///
/// Every original exits 1 on any failure, usage errors included (xclip and wl-clipboard do;
/// xsel's usage exits 0, which would make a mistyped option look like success, so here it is 1
/// too), so a mode has a single failure status. 130 is an interrupt, as for pb.
struct CompatibilityFailure: Error {
    /// The whole line, printed as it is (no tool prefix added), or nothing when empty.
    let line: String
    /// The exit status.
    var status: Int32 = 1

    /// A line printed as the original prints it.
    static func verbatim(_ line: String) -> CompatibilityFailure { CompatibilityFailure(line: line) }

    /// `tool: message`, for failures the original has no words for.
    static func failure(_ tool: CompatibilityTool, _ message: String) -> CompatibilityFailure {
        CompatibilityFailure(line: "\(tool.rawValue): \(message)")
    }

    /// An option the mode does not know or does not support, named, with where to look.
    static func unsupported(_ tool: CompatibilityTool, option: String) -> CompatibilityFailure {
        failure(tool, "option '\(option)' is not supported in pb's \(tool.rawValue) mode (see '\(tool.rawValue) --help' and pb(1), COMPATIBILITY)")
    }

    /// A usage mistake: `tool: message`, and the hint to `--help`.
    static func usage(_ tool: CompatibilityTool, _ message: String) -> CompatibilityFailure {
        failure(tool, "\(message) (see '\(tool.rawValue) --help')")
    }

    /// Prints `error` as `tool` reports failures and exits with the tool's status for it.
    static func exit(with error: any Error, tool: CompatibilityTool) -> Never {
        switch error {
        case let failure as CompatibilityFailure:
            if !failure.line.isEmpty { Output.printError(failure.line) }
            exit(status: failure.status)
        case is CancellationError:
            exit(status: ExitStatus.interrupted)
        case let error as CLIError:
            if !error.message.isEmpty { Output.printError("\(tool.rawValue): \(TypeWording.plain(error.message))") }
            exit(status: error.status == ExitStatus.success ? ExitStatus.success : ExitStatus.failure)
        default:
            // Worded as pb words it (types by their MIME names, no Swift value dumps); an
            // unreachable daemon is the original's failure (it could not open its display).
            Output.printError("\(tool.rawValue): \(TypeWording.plain(ErrorMessage.text(for: error)))")
            exit(status: ExitStatus.failure)
        }
    }

    static func exit(status: Int32) -> Never {
        Glibc.exit(status)
    }

    /// Ends the process as an original that does not handle `signal` ends on it: killed by it,
    /// so its parent sees that signal (a shell reports 128 + its number). The signal's handler
    /// is reset and it is unblocked on this thread (the pool's threads block it) before it is
    /// raised; should it still not end the process, the shell's status is the exit status.
    static func exit(killedBy signal: Int32) -> Never {
        Glibc.signal(signal, SIG_DFL)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, signal)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        raise(signal)
        Glibc.exit(128 + signal)
    }
}

import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Pasteboard
import CPasteboardSystem
import PasteboardCLI
import PasteboardSystem

/// `pb`: copy and paste through pasteboardd from the shell.
@main
struct PB: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pb",
        abstract: "Copy, paste, list and watch named pasteboards, and drag and drop between processes, through pasteboardd.",
        discussion: """
            pb talks to the daemon on $PASTEBOARD_SOCKET (default $XDG_RUNTIME_DIR/pasteboard/pasteboardd.sock) \
            and starts pasteboardd itself when nothing listens there. It sends nothing to a socket \
            whose listener runs as another user, nor to a default socket whose directory is not the \
            user's own and private.

            Started as pbcopy, pbpaste, xclip, xsel, wl-copy or wl-paste (a link that 'pb \
            install-links DIR' makes), pb behaves as that tool, with its usual options and exit \
            statuses, on pasteboardd's pasteboards (see pb(1), COMPATIBILITY).

            Exit status: 0 success, 1 failure, 2 usage error, 3 daemon unreachable (or its socket \
            another user's), 130 interrupted (SIGINT or SIGTERM during a paste or a drop).
            """,
        version: PasteboardRelease.version,
        subcommands: [Copy.self, Paste.self, List.self, Clear.self, Watch.self, Drag.self, Drop.self, Sessions.self, History.self, Types.self, Bridge.self, Link.self, InstallLinks.self]
    )

    /// Runs the command, mapping every failure to one line on stderr and pb's exit codes. The
    /// everyday `pb paste` and `pb copy` forms take the quick path (see ``QuickInvocation``).
    /// Started as `xclip`, `wl-paste`, … (a link `pb install-links` made), pb is that tool (see
    /// ``CompatibilityTool``); the check is a comparison of `argv[0]`'s last component.
    ///
    /// `main` is synchronous: an async main's main thread leaves through `pthread_exit` at once,
    /// and that first unwind sorts every frame description of the statically linked binary
    /// (about 25 ms, which `exit` then waits for). Asynchronous work runs on the global executor
    /// while the main thread waits (see `CommandRunner.runDetached`).
    static func main() {
        // The main thread only waits, and takes SIGINT and SIGTERM even when pb's parent started it with them blocked.
        pasteboard_unblock_interrupts()
        let arguments = CommandLine.arguments
        if let tool = arguments.first.flatMap(CompatibilityTool.init(programPath:)) {
            CommandRunner.runDetached { await tool.run(Array(arguments.dropFirst())) }
        }
        if arguments.count > 1, arguments[1] == BackgroundPasteServer.flag {
            CommandRunner.runDetached { await BackgroundPasteServer.serve(Array(arguments.dropFirst(2))) }
        }
        // ArgumentParser answers `pb nosuchcommand --help` with pb's own help and status 0, as if
        // the word named something: a word that names no subcommand is a usage error.
        if arguments.count > 2, let word = arguments.dropFirst().first, !word.hasPrefix("-"),
           arguments.contains(where: { $0 == "--help" || $0 == "-h" }),
           !configuration.subcommands.contains(where: { $0._commandName == word }) && word != "help" {
            Output.printError("pb: unknown subcommand '\(word)'; see pb --help")
            Glibc.exit(2)
        }
        if let quick = QuickInvocation(arguments: CommandLine.arguments.dropFirst()) {
            let remaining = CommandRunner.runBlocking(quick.runBlocking, reportingAs: PB.self)
            CommandRunner.runDetached { await CommandRunner.run(remaining, reportingAs: PB.self) }
        }
        CommandRunner.runDetached { await CommandRunner.main(PB.self) }
    }
}

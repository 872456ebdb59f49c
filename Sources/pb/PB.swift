import ArgumentParser
import Pasteboard
import PasteboardCLI
import PasteboardProtocol

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

            Exit status: 0 success, 1 failure, 2 usage error, 3 daemon unreachable (or its socket \
            another user's), 130 interrupted (SIGINT or SIGTERM during a paste or a drop).
            """,
        version: PasteboardRelease.version,
        subcommands: [Copy.self, Paste.self, List.self, Clear.self, Watch.self, Drag.self, Drop.self, Sessions.self, History.self, Types.self, Bridge.self]
    )

    /// Runs the command, mapping every failure to one line on stderr and pb's exit codes. The
    /// everyday `pb paste` and `pb copy` forms take the quick path (see ``QuickInvocation``).
    static func main() async {
        if let quick = QuickInvocation(arguments: CommandLine.arguments.dropFirst()) {
            let remaining = CommandRunner.runBlocking(quick.runBlocking, reportingAs: PB.self)
            await CommandRunner.run(remaining, reportingAs: PB.self)
        }
        await CommandRunner.main(PB.self)
    }
}

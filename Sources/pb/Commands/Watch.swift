import ArgumentParser
import Pasteboard
import PasteboardCLI
import PasteboardProtocol
import PasteboardSystem

/// `pb watch`: one line per change of a pasteboard until interrupted, or with `--exec`, a
/// command run on each change with the new content on its stdin.
struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print one line per change of a pasteboard, or run a command on each change, until interrupted.",
        discussion: """
            The first line describes the current content. Each line is the change count, then each \
            item's types joined by commas, items separated by spaces ('(empty)' when cleared, \
            '(sensitive)' when the new content is a secret). \
            With --json, each line is a JSON object.

            With --exec, nothing is printed: the command runs for the current content, then after each \
            change, one run at a time (changes during a run are coalesced into one run for the latest). \
            It gets the first item's representation on stdin, chosen as 'pb paste -t' chooses, and \
            PASTEBOARD_STATE set to 'data', 'clear' (stdin empty) or 'sensitive' (stdin empty unless \
            --include-sensitive). Its exit status does not stop the watch; SIGINT or SIGTERM stops the \
            command, then pb (exit 0).

            When pasteboardd goes away (stopped, restarted, killed), pb says so on stderr, reconnects \
            (starting it if needed) and watches again: a change made meanwhile is reported (or runs \
            the command) once, the unchanged content is not reported again.
            """
    )

    @OptionGroup var options: PasteboardOptions

    @Flag(name: .long, help: "Print each change as one line of JSON.")
    var json = false

    @Option(name: [.customShort("t"), .customLong("type")], parsing: .singleValue,
            help: ArgumentHelp("With --exec, an accepted type, as for 'pb paste -t'. Repeat, most preferred first.", valueName: "type"))
    var types: [String] = []

    @Flag(name: .customLong("include-sensitive"), help: "With --exec, give the command a sensitive item's content too.")
    var includeSensitive = false

    @Flag(name: [.customShort("v"), .customLong("verbose")], help: "With --exec, report each change and each run's exit status on stderr.")
    var verbose = false

    @Option(name: .customLong("exec"), parsing: .remaining,
            help: ArgumentHelp("Run this command on each change, with the content on stdin; every word after it is the command's.",
                               valueName: "command"))
    var exec: [String] = []

    /// The command's words, without a `--` that may separate them from `--exec`.
    private var commandWords: [String] {
        exec.first == "--" ? Array(exec.dropFirst()) : exec
    }

    /// `--exec` with no command after it: ArgumentParser then leaves `exec` empty, as when
    /// `--exec` is not given (every word after `--exec` is the command's, so a `--exec` among
    /// pb's arguments that left it empty was the last one).
    private var execWithoutCommand: Bool {
        exec.isEmpty && CommandLine.arguments.dropFirst().contains("--exec")
    }

    func validate() throws {
        if execWithoutCommand || (!exec.isEmpty && commandWords.isEmpty) { throw ValidationError("--exec needs a command") }
        guard exec.isEmpty else {
            if json { throw ValidationError("give --json or --exec, not both") }
            return
        }
        if !types.isEmpty { throw ValidationError("-t needs --exec") }
        if includeSensitive { throw ValidationError("--include-sensitive needs --exec") }
        if verbose { throw ValidationError("--verbose needs --exec") }
    }

    func run() async throws {
        let watch = ReconnectingWatch(pasteboard: options.pasteboard)
        let position = WatchPosition()
        guard !exec.isEmpty else {
            try await watch.run(position: position) { pasteboard in
                for try await change in pasteboard.changes({ $0 }) where position.isNew(change.changeCount) {
                    try Output.printLine(json ? ItemsFormatting.json(change) : ItemsFormatting.line(change))
                }
            }
            return
        }
        let environment = ProcessEnvironment.current()
        let exec = WatchExec(
            command: try ExternalCommand.resolve(commandWords, path: environment["PATH"]),
            accepted: try TypeArguments.pasteTypes(types, registry: TypeArguments.registry(resolving: types)),
            includeSensitive: includeSensitive, verbose: verbose, environment: environment
        )
        do {
            try await Signals.cancellingOnInterrupt {
                try await watch.run(position: position) { pasteboard in try await exec.run(on: pasteboard, position: position) }
            }
        } catch is CancellationError {
            // Stopped by SIGINT or SIGTERM, after the command: the watch's normal end.
        }
    }
}

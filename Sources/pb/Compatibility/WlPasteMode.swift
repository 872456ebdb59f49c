import Pasteboard
import PasteboardCLI
import PasteboardSystem
import PasteboardTypes

/// `wl-paste`: paste the clipboard (`general`), or with `-p` `primary`, to stdout; `-l` lists
/// the types it is offered as; `-w COMMAND…` runs the command on each change with the content on
/// its stdin and `CLIPBOARD_STATE` set as wl-clipboard 2.2 documents it, until SIGINT or SIGTERM,
/// which end it as they end wl-paste (killed by the signal, once the command is stopped).
///
/// Without `-t` text is preferred (plain text, then any text), else the item's first
/// representation, as wl-paste infers; a text paste gets a newline appended unless `-n`. An
/// empty clipboard is `No selection` and status 1, a missing type `No suitable type of content
/// copied` and status 1: wl-clipboard 2.1's words (2.2 and later say `Nothing is copied`).
struct WlPasteMode: CompatibilityMode {
    static let tool = CompatibilityTool.wlPaste
    static let options = OptionScanner(style: .getopt, options: [
        .init(name: "no-newline", short: "n", long: ["no-newline"]),
        .init(name: "list-types", short: "l", long: ["list-types"]),
        .init(name: "primary", short: "p", long: ["primary"]),
        .init(name: "watch", short: "w", long: ["watch"], takesValue: true, takesRest: true),
        .init(name: "type", short: "t", long: ["type"], takesValue: true),
        .init(name: "seat", short: "s", long: ["seat"], takesValue: true),
        .init(name: "version", short: "v", long: ["version"]),
        .init(name: "help", short: "h", long: ["help"]),
    ])

    static let help = """
        Usage:
        \twl-paste [options]
        Paste content from the clipboard through pasteboardd (pb in wl-paste compatibility mode).

        Options:
        \t-n, --no-newline\tDo not append a newline character.
        \t-l, --list-types\tInstead of pasting, list the offered types.
        \t-p, --primary\t\tUse the "primary" pasteboard.
        \t-w, --watch command\tRun a command each time the selection changes.
        \t-t, --type mime/type\tOverride the inferred MIME type for the content.
        \t-s, --seat seat-name\tAccepted; every seat has pasteboardd's one clipboard.
        \t-v, --version\t\tDisplay version info.
        \t-h, --help\t\tDisplay this message.

        See pb(1), COMPATIBILITY.
        """

    /// What wl-paste prints when nothing is copied (wl-clipboard 2.1).
    static let emptyMessage = "No selection"
    /// What wl-paste prints when no offered type matches.
    static let noSuitableTypeMessage = "No suitable type of content copied"

    private var noNewline = false, listTypes = false
    private var pasteboard = PasteboardName.general
    private var type: String?
    private var watch: [String]?

    mutating func take(_ element: OptionScanner.Element) throws -> Bool {
        switch element {
        case .option(name: "no-newline", _, _): noNewline = true
        case .option(name: "list-types", _, _): listTypes = true
        case .option(name: "primary", _, _): pasteboard = PasteboardName.primary
        case .option(name: "seat", _, _):
            // The daemon has one clipboard and one primary selection for every seat; its desktop
            // bridge serves the compositor's first seat. A seat name picks nothing else here.
            break
        case .option(name: "type", _, let value): type = value
        case .rest(name: "watch", let words):
            guard let command = words.first, !command.hasPrefix("-") else {
                throw CompatibilityFailure.usage(.wlPaste, "expected a command instead of an argument after --watch")
            }
            watch = words
        default: return false
        }
        return true
    }

    func run() async throws {
        let access = ClipboardAccess(pasteboard: pasteboard)
        let accepted = try type.map { name throws(CLIError) in try CompatibilityTypes.pasteTypes(name) } ?? CompatibilityTypes.textElseAnything
        if let watch { return try await Self.watch(watch, accepting: accepted, on: pasteboard) }
        if listTypes {
            guard let item = try await access.currentItem() else { throw CompatibilityFailure.verbatim(Self.emptyMessage) }
            for name in CompatibilityTypes.wlCopyNames(of: item) { try Output.printLine(name) }
            return
        }
        let output = PasteOutput()
        switch try await access.paste(accepting: accepted, to: output) {
        case .empty: throw CompatibilityFailure.verbatim(Self.emptyMessage)
        case .noSuitableType: throw CompatibilityFailure.verbatim(Self.noSuitableTypeMessage)
        case .pasted(let header):
            if !noNewline && CompatibilityTypes.isText(header) { try output.append("\n") }
        }
    }

    /// `--watch`: pb watch --exec's machinery with wl-paste's variables, the content of a
    /// secret included (as wl-paste gives it); SIGINT or SIGTERM stops the command, then this.
    private static func watch(_ words: [String], accepting accepted: [TypeIdentifier], on pasteboard: String) async throws {
        let environment = ProcessEnvironment.current()
        var watch = WatchExec(command: try ExternalCommand.resolve(words, path: environment["PATH"]), accepted: accepted,
                              includeSensitive: true, verbose: false, environment: environment)
        watch.convention = .clipboardState
        let running = watch
        // Across daemon restarts, as `pb watch --exec` (see `ReconnectingWatch`).
        let reconnecting = ReconnectingWatch(pasteboard: pasteboard)
        let position = WatchPosition()
        let watching = Task {
            try await reconnecting.run(position: position) { try await running.run(on: $0, position: position) }
        }
        // SIGINT or SIGTERM stops the command, then the watch, which then ends as wl-paste ends
        // on them, killed by that signal (a shell sees 130 or 143), since it handles neither.
        let signal = await withTaskGroup(of: Int32?.self) { group in
            group.addTask { await Signals.next() }
            group.addTask {
                _ = await watching.result
                return nil
            }
            let first = await group.next() ?? nil
            // The group waits for both: a signal stops the watch (and with it the command), the
            // watch's end stops the wait for a signal.
            if first != nil { watching.cancel() }
            group.cancelAll()
            return first
        }
        guard let signal else { return try await watching.value }
        CompatibilityFailure.exit(killedBy: signal)
    }
}

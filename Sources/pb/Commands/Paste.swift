import ArgumentParser
import Pasteboard
import PasteboardCLI
import PasteboardSystem
import PasteboardTypes

/// `pb paste`: write an item's best representation for the accepted types to stdout or a file.
struct Paste: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paste",
        abstract: "Paste an item's representation to stdout or a file.",
        discussion: """
            -t repeats in preference order and takes a type identifier, a MIME type, or the words \
            'text' (plain text, else any text) and 'image'. The choice is the first requested type \
            that some representation conforms to and, among those, the item's highest-fidelity \
            representation. Without -t, the item's first representation.

            When stdout is a terminal and the representation is not text (an image, an archive), \
            pb writes nothing and exits 1 with a hint: give -o FILE, pipe it to a program, or \
            --force.

            --osc52 asks the terminal for its clipboard (or, with -p primary, its primary \
            selection) with the OSC 52 query on /dev/tty, without the daemon, and waits for the \
            answer at most 2 seconds (PASTEBOARD_OSC52_TIMEOUT); it is written only once all of \
            it has arrived. Terminals that answer: xterm with allowWindowOps, kitty \
            with read-clipboard in clipboard_control, foot, tmux with 'set -g set-clipboard on' \
            (from its newest buffer). PASTEBOARD_OSC52=fallback uses it only when no daemon is \
            reachable and none can be started, and says so on stderr; PASTEBOARD_OSC52=always \
            on every paste (see pb(1), OSC 52).
            """
    )

    @OptionGroup var options: PasteboardOptions

    @Option(name: [.customShort("t"), .customLong("type")], parsing: .singleValue,
            help: ArgumentHelp("An accepted type: UTI, MIME type, 'text' or 'image'. Repeat, most preferred first.", valueName: "type"))
    var types: [String] = []

    @Option(name: .customLong("item"), parsing: .unconditional, help: ArgumentHelp("Which item, from 0.", valueName: "n"))
    var item: Int = 0

    @Option(name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("Write to this file (through a temporary file and a rename) instead of stdout.", valueName: "path"),
            completion: .file())
    var output: String?

    @Flag(name: .customLong("progress"), help: "Print 'progress COMPLETED TOTAL' lines on stderr.")
    var progressLines = false

    @Flag(name: .customLong("no-progress"), help: "Print no progress, not even a bar on a terminal.")
    var noProgress = false

    @Flag(name: [.customShort("f"), .customLong("force")], help: "Write data that is not text to a terminal too.")
    var force = false

    @Flag(name: .customLong("osc52"), help: "Ask the terminal for its clipboard with OSC 52 (on /dev/tty), not the daemon.")
    var osc52 = false

    func validate() throws {
        if osc52, let conflict = osc52Conflict { throw ValidationError(conflict) }
        if item < 0 { throw ValidationError("--item must be 0 or more (items are counted from 0), not \(item)") }
        if progressLines && noProgress { throw ValidationError("give --progress or --no-progress, not both") }
    }

    /// Why this paste cannot go through OSC 52, which reads the terminal's one text; nil when it can.
    private var osc52Conflict: String? {
        if item != 0 { return "--osc52 reads the terminal's one text: it does not take --item" }
        if OSC52Sequence.Selection(pasteboard: options.pasteboard) == nil { return OSC52Clipboard.refusal(pasteboard: options.pasteboard) }
        if let word = types.first(where: { !Self.isText($0) }) { return "OSC 52 carries text only: -t \(word) is not plain text" }
        return nil
    }

    /// Whether the type word `word` takes the terminal's plain text: `text`, a kind of plain text
    /// (`public.utf8-plain-text`), or a type plain text is a kind of (`public.text`).
    private static func isText(_ word: String) -> Bool {
        let registry = TypeArguments.registry(resolving: [word])
        guard word != "text", let type = registry.resolve(word) else { return word == "text" }
        return registry.conforms(.plainText, to: type) || registry.conforms(type, to: .plainText)
    }

    func run() async throws {
        let setting = try OSC52Setting.current()
        if try setting.usesTerminal(asked: osc52, conflict: osc52Conflict) {
            try setting.throughTerminal(asked: osc52) { try OSC52Clipboard(pasteboard: options.pasteboard, setting: setting).paste(to: output) }
            return
        }
        try await PasteJob(pasteboard: options.pasteboard, types: types, item: item, output: output,
                           progress: ProgressDisplay.mode(lines: progressLines, none: noProgress), force: force).run()
    }
}

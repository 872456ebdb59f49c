import PasteboardCLI
import PasteboardSystem
import PasteboardTypes

/// `wl-copy`: copy stdin, or the words given, to the clipboard (`general`), or with `-p` to
/// `primary`.
///
/// wl-copy forks and serves the data until something else is copied; here the daemon holds it,
/// so a plain copy returns at once. `-f` stays in the foreground until the copy is replaced;
/// `-o` serves one paste (in the background unless `-f`) and then clears the clipboard;
/// `--sensitive` (wl-clipboard 2.3) marks the item a secret.
struct WlCopyMode: CompatibilityMode {
    static let tool = CompatibilityTool.wlCopy
    static let options = OptionScanner(style: .getopt, options: [
        .init(name: "paste-once", short: "o", long: ["paste-once"]),
        .init(name: "foreground", short: "f", long: ["foreground"]),
        .init(name: "clear", short: "c", long: ["clear"]),
        .init(name: "primary", short: "p", long: ["primary"]),
        .init(name: "trim-newline", short: "n", long: ["trim-newline"]),
        .init(name: "type", short: "t", long: ["type"], takesValue: true),
        .init(name: "sensitive", long: ["sensitive"]),
        .init(name: "seat", short: "s", long: ["seat"], takesValue: true),
        .init(name: "version", short: "v", long: ["version"]),
        .init(name: "help", short: "h", long: ["help"]),
    ])

    static let help = """
        Usage:
        \twl-copy [options] text to copy
        \twl-copy [options] < file-to-copy

        Copy content to the clipboard through pasteboardd (pb in wl-copy compatibility mode).

        Options:
        \t-o, --paste-once\tOnly serve one paste request and then clear the clipboard.
        \t-f, --foreground\tStay in the foreground until the copy is replaced.
        \t-c, --clear\t\tInstead of copying, clear the clipboard.
        \t-p, --primary\t\tUse the "primary" pasteboard.
        \t-n, --trim-newline\tDo not copy the trailing newline character.
        \t-t, --type mime/type\tOverride the inferred MIME type for the content.
        \t    --sensitive\t\tMark the content a secret (kept in memory only).
        \t-s, --seat seat-name\tAccepted; every seat has pasteboardd's one clipboard.
        \t-v, --version\t\tDisplay version info.
        \t-h, --help\t\tDisplay this message.

        See pb(1), COMPATIBILITY.
        """

    private var pasteOnce = false, foreground = false, clear = false, trimNewline = false, sensitive = false
    private var pasteboard = PasteboardName.general
    private var type: String?
    private var words: [String] = []

    mutating func take(_ element: OptionScanner.Element) -> Bool {
        switch element {
        case .operand(let word): words.append(word)
        case .option(name: "paste-once", _, _): pasteOnce = true
        case .option(name: "foreground", _, _): foreground = true
        case .option(name: "clear", _, _): clear = true
        case .option(name: "primary", _, _): pasteboard = PasteboardName.primary
        case .option(name: "seat", _, _):
            // The daemon has one clipboard and one primary selection for every seat; its desktop
            // bridge serves the compositor's first seat. A seat name picks nothing else here.
            break
        case .option(name: "trim-newline", _, _): trimNewline = true
        case .option(name: "type", _, let value): type = value
        case .option(name: "sensitive", _, _): sensitive = true
        default: return false
        }
        return true
    }

    func run() async throws {
        let access = ClipboardAccess(pasteboard: pasteboard)
        if clear { return try await access.clear() }
        let input: CopyInput = words.isEmpty ? .standardInput : .bytes(Array(words.joined(separator: " ").utf8))
        let type = try type.map { name throws(CLIError) in try CompatibilityTypes.copyType(name) }
        if pasteOnce {
            let chunks = try input.chunks(CopyInput.Shaping(trimNewline: trimNewline))
            let serving = PasteServing(tool: .wlCopy, pasteboard: pasteboard, type: type ?? CopyInput.sniffedType(chunks),
                                       chunks: chunks, sensitive: sensitive, count: 1)
            if foreground { return try await serving.serve() }
            return try BackgroundPasteServer.start(serving)
        }
        let changeCount = try await access.copy(try input.item(type: type, shaping: CopyInput.Shaping(trimNewline: trimNewline), sensitive: sensitive))
        if foreground { try await access.waitUntilReplaced(changeCount: changeCount) }
    }
}

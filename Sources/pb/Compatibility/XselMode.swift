#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import PasteboardCLI
import PasteboardProtocol
import PasteboardTypes
import Synchronization

/// `xsel`: paste (`-o`), copy stdin (`-i`), append stdin (`-a`) or clear (`-c`) a selection:
/// `primary` (`-p`, the default), `general` (`-b`) or `secondary` (`-s`). Without `-i`, `-o`,
/// `-a` or `-c` it decides as xsel does: it pastes when stdout is not a terminal and copies
/// when stdin is not one (both: the old content is printed before the new replaces it).
///
/// An empty selection pastes nothing, with status 0, as xsel. `-n` (`--nodetach`) stays in the
/// foreground after a copy until it is replaced; `-k` has nothing to do (the daemon keeps every
/// selection); `-v` is accepted and changes nothing. Options must be given one by one (`-b -i`),
/// as xsel reads them.
struct XselMode: CompatibilityMode {
    static let tool = CompatibilityTool.xsel
    static let options = OptionScanner(style: .exact, options: [
        .init(name: "append", short: "a", long: ["append"]),
        .init(name: "follow", short: "f", long: ["follow"]),
        .init(name: "zeroflush", short: "z", long: ["zeroflush"]),
        .init(name: "input", short: "i", long: ["input"]),
        .init(name: "output", short: "o", long: ["output"]),
        .init(name: "clear", short: "c", long: ["clear"]),
        .init(name: "delete", short: "d", long: ["delete"]),
        .init(name: "primary", short: "p", long: ["primary"]),
        .init(name: "secondary", short: "s", long: ["secondary"]),
        .init(name: "clipboard", short: "b", long: ["clipboard"]),
        .init(name: "keep", short: "k", long: ["keep"]),
        .init(name: "exchange", short: "x", long: ["exchange"]),
        .init(name: "display", long: ["display"], takesValue: true),
        .init(name: "selectionTimeout", short: "t", long: ["selectionTimeout"], takesValue: true),
        .init(name: "logfile", short: "l", long: ["logfile"], takesValue: true),
        .init(name: "nodetach", short: "n", long: ["nodetach"]),
        .init(name: "help", short: "h", long: ["help"]),
        .init(name: "verbose", short: "v", long: ["verbose"]),
        .init(name: "version", long: ["version"]),
    ])

    static let help = """
        Usage: xsel [options]
        Manipulate a selection through pasteboardd (pb in xsel compatibility mode).

        By default the current selection is output and not modified if both
        standard input and standard output are terminals (ttys).  Otherwise,
        the current selection is output if standard output is not a terminal
        (tty), and the selection is set from standard input if standard input
        is not a terminal (tty). If any input or output options are given then
        the program behaves only in the requested mode.

          -a, --append          Append standard input to the selection
          -i, --input           Read standard input into the selection
          -o, --output          Write the selection to standard output
          -c, --clear           Clear the selection
          -p, --primary         Operate on the PRIMARY selection (default)
          -s, --secondary       Operate on the SECONDARY selection
          -b, --clipboard       Operate on the CLIPBOARD selection
          -k, --keep            Accepted; nothing to do (pasteboardd keeps every selection)
          -n, --nodetach        After input, stay in the foreground until replaced
          -v, --verbose         Accepted
          -h, --help            Display this help and exit
              --version         Output version information and exit
        Not supported: -f, -z, -d, -x, --display, -t, -l.

        See pb(1), COMPATIBILITY.
        """

    private var input = false, output = false, append = false, clear = false, keep = false, nodetach = false
    private var pasteboard = PasteboardName.primary

    mutating func take(_ element: OptionScanner.Element) -> Bool {
        switch element {
        case .option(name: "append", _, _): append = true
        case .option(name: "input", _, _): input = true
        case .option(name: "output", _, _): output = true
        case .option(name: "clear", _, _): clear = true
        case .option(name: "primary", _, _): pasteboard = PasteboardName.primary
        case .option(name: "secondary", _, _): pasteboard = "secondary"
        case .option(name: "clipboard", _, _): pasteboard = PasteboardName.general
        case .option(name: "keep", _, _): keep = true
        case .option(name: "nodetach", _, _): nodetach = true
        case .option(name: "verbose", _, _): break
        default: return false
        }
        return true
    }

    mutating func finish() {
        if !(input || output || append || clear || keep) {
            // xsel's default: by what stdin and stdout are.
            output = isatty(1) == 0 || isatty(0) == 1
            input = isatty(0) == 0
        }
    }

    func run() async throws {
        let access = ClipboardAccess(pasteboard: pasteboard)
        if output {
            _ = try await access.paste(accepting: CompatibilityTypes.text, to: PasteOutput())
        }
        if clear { try await access.clear() }
        guard input || append else { return }
        let changeCount: Int
        if append {
            let old = try await Self.currentText(access)
            let added = try CopyInput.standardInput.read(trimNewline: false)
            changeCount = try await access.copy(CopyInput.item(old + added, type: nil))
        } else {
            changeCount = try await access.copy(try CopyInput.standardInput.item(type: nil, trimNewline: false, sensitive: false))
        }
        if nodetach { try await access.waitUntilReplaced(changeCount: changeCount) }
    }

    /// The selection's text now (empty when it holds none), for `--append`.
    private static func currentText(_ access: ClipboardAccess) async throws -> [UInt8] {
        let bytes = Mutex<[UInt8]>([])
        let collector = PasteOutput(sink: { buffer in bytes.withLock { $0 += buffer.readableBytesView } })
        _ = try await access.paste(accepting: CompatibilityTypes.text, to: collector)
        return bytes.withLock { $0 }
    }
}

#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import PasteboardCLI
import PasteboardSystem
import PasteboardTypes
import Synchronization

/// `xsel`: paste (`-o`), copy stdin (`-i`), append stdin (`-a`) or clear (`-c`) a selection:
/// `primary` (`-p`, the default), `general` (`-b`) or `secondary` (`-s`). Without `-i`, `-o`,
/// `-a` or `-c` it decides as xsel does: it pastes when stdout is not a terminal and copies
/// when stdin is not one (both: the old content is printed before the new replaces it).
///
/// An empty selection pastes nothing, with status 0, as xsel. `-n` (`--nodetach`) stays in the
/// foreground after a copy until it is replaced; `-t MS` clears a copy that long after (xsel's
/// background process leaves then) and gives a paste up after as long; `-k` has nothing to do
/// (the daemon keeps every selection); `-v`, `--display` and `-l` are accepted and change
/// nothing. Grouped options are split first, as xsel
/// 1.2.0 splits them: `-bi` is `-b -i`, `-ob` is `-o -b`.
struct XselMode: CompatibilityMode {
    static let tool = CompatibilityTool.xsel
    static let options = OptionScanner(style: .splitClusters, options: [
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
              --display name    Accepted; the display is pasteboardd's (its desktop bridge's)
          -t ms, --selectionTimeout ms
                                Input: clear the selection this many milliseconds later,
                                unless replaced; output: give up after as long. 0 (the
                                default) is no timeout
          -l, --logfile file    Accepted; nothing detaches, so nothing is logged there
          -n, --nodetach        After input, stay in the foreground until replaced
          -v, --verbose         Accepted
          -h, --help            Display this help and exit
              --version         Output version information and exit
        Grouped options are split as xsel splits them: -bi is -b -i.
        Not supported: -f, -z, -d, -x.

        See pb(1), COMPATIBILITY.
        """

    /// The longest `-t`: `SecondsLimit.maximum` (about 31.7 years), in milliseconds.
    static let maximumTimeout = Int(SecondsLimit.maximum) * 1000

    private var input = false, output = false, append = false, clear = false, keep = false, nodetach = false
    private var pasteboard = PasteboardName.primary
    /// `-t`: milliseconds, nil for none (`-t 0`, the default).
    private var timeout: Duration?

    mutating func take(_ element: OptionScanner.Element) throws -> Bool {
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
        case .option(name: "display", _, _):
            // The selections are pasteboardd's, which its desktop bridge mirrors on the display
            // it serves: there is no other display to reach from here.
            break
        case .option(name: "logfile", _, _):
            // xsel logs there once detached; this mode never detaches (the daemon holds the copy).
            break
        case .option(name: "selectionTimeout", let spelled, let value):
            // Digits only: xsel's strtol would read "1e19" as 1, "-5" and "x" as 0 (no timeout).
            guard let value, value.allSatisfy({ ("0"..."9").contains($0) }), let milliseconds = Int(value), milliseconds <= Self.maximumTimeout else {
                throw CompatibilityFailure.usage(.xsel, "\(spelled) takes milliseconds from 0 (no timeout) to \(Self.maximumTimeout), not '\(value ?? "")'")
            }
            timeout = milliseconds == 0 ? nil : .milliseconds(milliseconds)
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
        // -k ignores every input and output option, as in xsel; the daemon keeps every selection.
        if keep { return }
        let access = ClipboardAccess(pasteboard: pasteboard)
        if output {
            if let timeout {
                try await Self.paste(access, within: timeout)
            } else {
                _ = try await access.paste(accepting: CompatibilityTypes.text, to: PasteOutput())
            }
        }
        // -c overrides every input option, as in xsel.
        if clear { return try await access.clear() }
        guard input || append else { return }
        var shaping = CopyInput.Shaping()
        if append { shaping.prepended = try await Self.currentText(access) }
        // -t: xsel's background process leaves after it, which empties the selection; here the
        // daemon clears it then (and, as for any copy that expires, keeps it out of the history).
        let changeCount = try await access.copy(try CopyInput.standardInput.item(type: nil, shaping: shaping), expiringAfter: timeout)
        if nodetach { try await access.waitUntilReplaced(changeCount: changeCount) }
    }

    /// `-o -t`: the paste, given up after `timeout`. Nothing written by then is an empty
    /// selection (no output, status 0), as xsel's timed-out request is; part of it written is a
    /// failure, so a script never takes a cut-off selection for the whole.
    private static func paste(_ access: ClipboardAccess, within timeout: Duration) async throws {
        let output = PasteOutput()
        guard try await access.paste(accepting: CompatibilityTypes.text, to: output, within: timeout) == nil else { return }
        guard output.wroteAnything else { return }
        throw CompatibilityFailure.failure(.xsel, "the selection was not all retrieved within \(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000) ms; what was written is only its beginning")
    }

    /// The selection's text now (none when it holds none), for `--append`.
    private static func currentText(_ access: ClipboardAccess) async throws -> [ByteBuffer] {
        let chunks = Mutex<[ByteBuffer]>([])
        let collector = PasteOutput(sink: { buffer in chunks.withLock { $0.append(buffer) } })
        _ = try await access.paste(accepting: CompatibilityTypes.text, to: collector)
        return chunks.withLock { $0 }
    }
}

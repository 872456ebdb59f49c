import PasteboardCLI
import PasteboardSystem
import PasteboardTypes

/// `xclip`: copy stdin or files (`-i`, the default) to a selection, or paste it (`-o`). The
/// selection is `primary` unless `-selection` says `clipboard` (`general`) or `secondary` (a
/// `secondary` pasteboard with no desktop counterpart); as in xclip only the value's first
/// letter counts, and option names may be shortened to any unambiguous prefix (`-sel c`).
///
/// `-t TARGETS` lists the types (after `TARGETS`, as an X11 owner answers); `-l N` serves N
/// pastes and then clears the selection, in the background unless `-quiet` or `-verbose`, which
/// also make a plain copy stay until it is replaced. Without `-t`, `-o` pastes text, else the
/// item's first representation, as an xclip owner serves its data for any target asked
/// (`xclip-copyfile`'s gzip data, an image). An empty selection, or one without the asked
/// target, is `Error: target NAME not available` and status 1, as in xclip 0.13.
struct XclipMode: CompatibilityMode {
    static let tool = CompatibilityTool.xclip
    static let options = OptionScanner(style: .singleDashPrefix, options: [
        .init(name: "in", long: ["in"]),
        .init(name: "out", long: ["out"]),
        .init(name: "loops", long: ["loops"], takesValue: true),
        .init(name: "display", long: ["display"], takesValue: true),
        .init(name: "help", long: ["help"]),
        .init(name: "selection", long: ["selection"], takesValue: true),
        .init(name: "noutf8", long: ["noutf8"]),
        .init(name: "target", long: ["target"], takesValue: true),
        .init(name: "rmlastnl", long: ["rmlastnl"]),
        .init(name: "version", long: ["version"]),
        .init(name: "silent", long: ["silent"]),
        .init(name: "quiet", long: ["quiet"]),
        .init(name: "verbose", long: ["verbose"]),
        .init(name: "filter", long: ["filter"]),
    ])

    static let help = """
        Usage: xclip [OPTION] [FILE]...
        Access a pasteboard through pasteboardd (pb in xclip compatibility mode).

          -i, -in          read text into the selection from standard input or files
                           (default)
          -o, -out         prints the selection to standard out
          -l, -loops       number of pastes to serve before clearing the selection
          -d, -display     accepted; the display is pasteboardd's (its desktop bridge's)
          -h, -help        usage information
              -selection   selection to access ("primary", "secondary" or "clipboard")
              -noutf8      accepted; the bytes pass unchanged, as between two xclips
              -target      use the given target (a MIME type, UTF8_STRING, or TARGETS)
              -rmlastnl    remove the last newline character if present
              -version     version information
              -silent      errors only, serve -l in the background (default)
              -quiet       run in the foreground until the selection is replaced
              -verbose     as -quiet
          -f, -filter      with -i, also print the text to standard out
        Not supported: -selection buffer-cut.

        See pb(1), COMPATIBILITY.
        """

    private var output = false, filter = false, removeLastNewline = false, foreground = false
    private var loops = 0
    private var pasteboard = PasteboardName.primary
    private var target: String?
    private var files: [String] = []

    mutating func take(_ element: OptionScanner.Element) throws -> Bool {
        switch element {
        case .operand(let file): files.append(file)
        case .option(name: "in", _, _): output = false
        case .option(name: "out", _, _): output = true
        case .option(name: "filter", _, _): filter = true
        case .option(name: "rmlastnl", _, _): removeLastNewline = true
        case .option(name: "silent", _, _): foreground = false
        case .option(name: "quiet", _, _), .option(name: "verbose", _, _): foreground = true
        case .option(name: "target", _, let value): target = value
        case .option(name: "display", _, _):
            // The selections are pasteboardd's, which its desktop bridge mirrors on the display
            // it serves: there is no other display to reach from here.
            break
        case .option(name: "noutf8", _, _):
            // Legacy mode makes xclip ask for and offer STRING instead of UTF8_STRING; an xclip
            // owner hands its bytes over as they are either way, and so does the daemon.
            break
        case .option(name: "loops", let spelled, let value):
            guard let value, let count = Int(value), (0...PasteServing.maximumCount).contains(count) else {
                throw CompatibilityFailure.usage(.xclip, "\(spelled) takes a number of pastes from 0 (no limit) to \(PasteServing.maximumCount), not '\(value ?? "")'")
            }
            loops = count
        case .option(name: "selection", let spelled, let value):
            switch value?.lowercased().first {
            case "p": pasteboard = PasteboardName.primary
            case "c": pasteboard = PasteboardName.general
            case "s": pasteboard = "secondary"
            case "b": throw CompatibilityFailure.unsupported(.xclip, option: "\(spelled) \(value ?? "")")
            default: throw CompatibilityFailure.usage(.xclip, "\(spelled) takes primary, secondary or clipboard, not '\(value ?? "")'")
            }
        default: return false
        }
        return true
    }

    func finish() throws {
        if output && !files.isEmpty { throw CompatibilityFailure.usage(.xclip, "files are read only with -i, not with -o") }
        if !output && target == "TARGETS" { throw CompatibilityFailure.usage(.xclip, "TARGETS can only be pasted (-o -t TARGETS)") }
    }

    func run() async throws {
        let access = ClipboardAccess(pasteboard: pasteboard)
        if output { return try await paste(access) }
        let input: CopyInput = files.isEmpty ? .standardInput : .files(files)
        let type = try target.map { name throws(CLIError) in try CompatibilityTypes.copyType(name) }
        // -f prints what it copies from stdin (not from files, as in xclip), trimmed as copied.
        let shaping = CopyInput.Shaping(trimNewline: removeLastNewline, echo: filter && files.isEmpty)
        if loops > 0 {
            let chunks = try input.chunks(shaping)
            let serving = PasteServing(tool: .xclip, pasteboard: pasteboard, type: type ?? CopyInput.sniffedType(chunks), chunks: chunks, sensitive: false, count: loops)
            if foreground { return try await serving.serve() }
            return try BackgroundPasteServer.start(serving)
        }
        let changeCount = try await access.copy(try input.item(type: type, shaping: shaping))
        if foreground { try await access.waitUntilReplaced(changeCount: changeCount) }
    }

    private func paste(_ access: ClipboardAccess) async throws {
        let missing = CompatibilityFailure.verbatim("Error: target \(target ?? "STRING") not available")
        if target == "TARGETS" {
            guard let item = try await access.currentItem() else { throw missing }
            for name in ["TARGETS"] + CompatibilityTypes.offeredNames(of: item) { try Output.printLine(name) }
            return
        }
        // Without -t, what an xclip owner hands over: its data, whatever it is (text first).
        let accepted = try target.map { name throws(CLIError) in try CompatibilityTypes.pasteTypes(name) } ?? CompatibilityTypes.textElseAnything
        switch try await access.paste(accepting: accepted, to: PasteOutput(removeLastNewline: removeLastNewline)) {
        case .empty, .noSuitableType: throw missing
        case .pasted: return
        }
    }
}

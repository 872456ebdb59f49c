import PasteboardCLI
import PasteboardSystem
import PasteboardTypes

/// `pbpaste` (macOS): the general pasteboard (or `-pboard`'s) to stdout, as plain text unless
/// `-Prefer rtf` or `-Prefer ps` asks for RTF or PostScript first (each falls back to the
/// others). Nothing suitable, or nothing at all, prints nothing and exits 0, as on macOS.
struct PBPasteMode: CompatibilityMode {
    static let tool = CompatibilityTool.pbpaste
    static let options = OptionScanner(style: .exact, options: [
        .init(name: "help", long: ["help"]),
        .init(name: "pboard", long: ["pboard"], takesValue: true),
        .init(name: "Prefer", long: ["Prefer"], takesValue: true),
    ])

    static let help = """
        usage: pbpaste [-help] [-pboard {general | ruler | find | font}] [-Prefer {txt | rtf | ps}]
        Writes a pasteboard's text to standard output through pasteboardd (pb in pbpaste
        compatibility mode). See pb(1), COMPATIBILITY.
        """

    private var pasteboard = PasteboardName.general
    private var preference = "txt"

    mutating func take(_ element: OptionScanner.Element) throws -> Bool {
        switch element {
        case .option(name: "pboard", let spelled, let value):
            pasteboard = try MacPasteboardName.named(value, spelled: spelled, for: .pbpaste)
        case .option(name: "Prefer", let spelled, let value):
            guard let value, ["txt", "ascii", "rtf", "ps"].contains(value) else {
                throw CompatibilityFailure.usage(.pbpaste, "\(spelled) takes txt, rtf or ps, not '\(value ?? "")'")
            }
            preference = value
        case .operand:
            // macOS ignores operands (pyperclip runs `pbcopy w` and `pbpaste r`), and so does this.
            break
        default: return false
        }
        return true
    }

    func run() async throws {
        // One registry for both names: building it reads the user's declarations and shared-mime-info.
        let registry = TypeArguments.registry().registry
        let rtf = try TypeArguments.copyType("text/rtf", registry: registry)
        let postscript = try TypeArguments.copyType("application/postscript", registry: registry)
        let accepted: [TypeIdentifier] = switch preference {
        case "rtf": [rtf] + CompatibilityTypes.text + [postscript]
        case "ps": [postscript] + CompatibilityTypes.text + [rtf]
        default: CompatibilityTypes.text + [rtf, postscript]
        }
        _ = try await ClipboardAccess(pasteboard: pasteboard).paste(accepting: accepted, to: PasteOutput())
    }
}

import PasteboardCLI
import PasteboardSystem
import PasteboardTypes

/// `pbcopy` (macOS): stdin to the general pasteboard, or to the `find`, `font` or `ruler`
/// pasteboard with `-pboard`. As on macOS the input is plain text unless it starts with an RTF
/// header (`{\rtf`: text/rtf) or PostScript's (`%!PS-Adobe`: application/postscript).
/// No original runs on Linux: this follows pbcopy(1). Every failure exits 1.
struct PBCopyMode: CompatibilityMode {
    static let tool = CompatibilityTool.pbcopy
    static let options = OptionScanner(style: .exact, options: [
        .init(name: "help", long: ["help"]),
        .init(name: "pboard", long: ["pboard"], takesValue: true),
    ])

    static let help = """
        usage: pbcopy [-help] [-pboard {general | ruler | find | font}]
        Copies standard input to a pasteboard through pasteboardd (pb in pbcopy compatibility
        mode): plain text, or RTF or PostScript when the input starts with their header.
        See pb(1), COMPATIBILITY.
        """

    private var pasteboard = PasteboardName.general

    mutating func take(_ element: OptionScanner.Element) throws -> Bool {
        switch element {
        case .option(name: "pboard", let spelled, let value):
            pasteboard = try MacPasteboardName.named(value, spelled: spelled, for: .pbcopy)
        case .operand:
            // macOS ignores operands (pyperclip runs `pbcopy w` and `pbpaste r`), and so does this.
            break
        default: return false
        }
        return true
    }

    func run() async throws {
        let rtf = try CompatibilityTypes.copyType("text/rtf"), postscript = try CompatibilityTypes.copyType("application/postscript")
        let item = try CopyInput.standardInput.item(type: nil) { prefix, _ in Self.type(of: prefix, rtf: rtf, postscript: postscript) }
        try await ClipboardAccess(pasteboard: pasteboard).copy(item)
    }

    /// RTF or PostScript by the header `prefix` starts with, else plain text.
    static func type(of prefix: [UInt8], rtf: TypeIdentifier, postscript: TypeIdentifier) -> TypeIdentifier {
        if prefix.starts(with: Array("{\\rtf".utf8)) { return rtf }
        if prefix.starts(with: Array("%!PS-Adobe".utf8)) { return postscript }
        return .utf8PlainText
    }
}

import PasteboardCLI
import PasteboardProtocol
import PasteboardTypes

/// `pbcopy` (macOS): stdin to the general pasteboard, or to the `find`, `font` or `ruler`
/// pasteboard with `-pboard`. As on macOS the input is plain text unless it starts with an RTF
/// header (`{\rtf`: text/rtf) or PostScript's (`%!PS-Adobe`: application/postscript).
/// No original runs on Linux: this follows pbcopy(1). Every failure exits 1.
struct PBCopyMode {
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

    /// The pasteboard names `-pboard` takes.
    static let pasteboards = ["general", "ruler", "find", "font"]

    private var pasteboard = PasteboardName.general
    private var informational: String?

    init(arguments: [String]) throws {
        let elements: [OptionScanner.Element]
        do { elements = try Self.options.scan(arguments) } catch { throw error.failure(.pbcopy) }
        for element in elements {
            switch element {
            case .option(name: "help", _, _): informational = Self.help
            case .option(name: "pboard", let spelled, let value):
                guard let value, Self.pasteboards.contains(value) else {
                    throw CompatibilityFailure.usage(.pbcopy, "\(spelled) takes general, ruler, find or font, not '\(value ?? "")'")
                }
                pasteboard = value
            case .operand(let word): throw CompatibilityFailure.usage(.pbcopy, "unexpected argument: \(word)")
            case .option(_, let spelled, _), .rest(let spelled, _): throw CompatibilityFailure.unsupported(.pbcopy, option: spelled)
            }
        }
    }

    func run() async throws {
        if let informational { return Output.printOut(informational) }
        let bytes = try CopyInput.standardInput.read(trimNewline: false)
        try await ClipboardAccess(pasteboard: pasteboard).copy(CopyInput.item(bytes, type: try Self.type(of: bytes)))
    }

    /// RTF or PostScript by their header, else plain text.
    static func type(of bytes: [UInt8]) throws(CLIError) -> TypeIdentifier {
        if bytes.starts(with: Array("{\\rtf".utf8)) { return try CompatibilityTypes.copyType("text/rtf") }
        if bytes.starts(with: Array("%!PS-Adobe".utf8)) { return try CompatibilityTypes.copyType("application/postscript") }
        return .utf8PlainText
    }
}

#if canImport(Glibc)
import Glibc
#endif
import PasteboardCLI
import PasteboardProtocol
import PasteboardTypes

/// `pb paste` to a terminal: text is written, anything else refused with a hint, since raw
/// image or archive bytes on a terminal show nothing useful and can leave it in a strange state
/// (escape sequences). `cat` cannot tell; pb knows the type of what it is about to write.
/// `--force` writes it anyway. Only `pb paste` checks: compatibility modes write what their
/// originals write.
enum TerminalOutput {
    /// True when the bytes would go to stdout and stdout is a terminal (then the type is checked).
    static func needsCheck(output: String?, force: Bool) -> Bool {
        output == nil && !force && isatty(1) == 1
    }

    /// Throws, before any byte is written, when `header`'s type is not text. The registry is read
    /// only here (a paste to a terminal is typed by a person, not run in a loop).
    static func refuseUnlessText(_ header: RepresentationHeader) throws(CLIError) {
        let type = TypeIdentifier(rawValue: header.type)
        guard !TypeArguments.registry().registry.conforms(type, to: .text) else { return }
        throw .failure("not writing \(TypeWording.display(type)) data to the terminal (it is not text): "
            + "give -o FILE, pipe it to a program (pb paste | …), or --force")
    }
}

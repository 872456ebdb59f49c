import PasteboardCLI
import PasteboardSystem

/// The clipboard tools `pb` stands in for when it is started under their name (a symlink or
/// hard link named `xclip`, `wl-paste`, …): scripts, editors and muscle memory call those names,
/// and on a machine reached over SSH, or a desktop without the originals, none of them works.
///
/// Dispatch looks only at the last path component of `argv[0]`, a few string comparisons
/// before anything else runs, so `pb` under its own name starts as fast as before.
enum CompatibilityTool: String, CaseIterable, Sendable {
    case pbcopy, pbpaste, xclip, xsel
    case wlCopy = "wl-copy"
    case wlPaste = "wl-paste"

    /// The tool `programPath` (a process's `argv[0]`) names, or nil for any other name (`pb`).
    init?(programPath: String) {
        let name = programPath.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? programPath
        self.init(rawValue: name)
    }

    /// The names `pb install-links` creates, in the order shown.
    static var linkNames: [String] { allCases.map(\.rawValue) }

    /// Runs the tool with `arguments` (without the program name) and exits with its status.
    func run(_ arguments: [String]) async -> Never {
        do {
            switch self {
            case .pbcopy: try await PBCopyMode.run(arguments)
            case .pbpaste: try await PBPasteMode.run(arguments)
            case .xclip: try await XclipMode.run(arguments)
            case .xsel: try await XselMode.run(arguments)
            case .wlCopy: try await WlCopyMode.run(arguments)
            case .wlPaste: try await WlPasteMode.run(arguments)
            }
        } catch {
            CompatibilityFailure.exit(with: error, tool: self)
        }
        CompatibilityFailure.exit(status: ExitStatus.success)
    }

    /// What `--version` prints: the original's first line, for scripts that read its version
    /// (`xsel --version | cut -d' ' -f3`), naming the release whose behaviour the mode follows
    /// and is tested against (Debian's xclip 0.13, xsel 1.2.0, wl-clipboard 2.1.0), then that
    /// this is pb standing in for it.
    var versionText: String {
        let standIn = "pb \(PasteboardRelease.version) in \(rawValue) compatibility mode; see pb(1), COMPATIBILITY"
        switch self {
        case .xclip: return "xclip version 0.13\n\(standIn)"
        case .xsel: return "xsel version 1.2.0 (\(standIn))"
        case .wlCopy, .wlPaste: return "wl-clipboard 2.1.0\n\(standIn)"
        case .pbcopy, .pbpaste: return "\(rawValue) (\(standIn))"
        }
    }

    /// Whether `--version` and `--help` go to stderr, as xclip writes them.
    var printsInformationToStandardError: Bool { self == .xclip }
}

#if canImport(Glibc)
import Glibc
#endif
import PasteboardCLI
import PasteboardSystem

/// A command line to run, its program found the way a shell finds it: a word with a slash is
/// a path, any other is looked up in `$PATH`.
struct ExternalCommand: Sendable {
    /// The program's path, as found.
    let path: String
    /// The whole command line, the command's name as given first.
    let arguments: [String]

    /// The command's name as given.
    var name: String { arguments[0] }

    /// Finds the program of `words` (the command, then its arguments); throws when there is no
    /// executable file by that name, so a typo is caught before anything runs.
    static func resolve(_ words: [String], path searchPath: String?) throws(CLIError) -> ExternalCommand {
        guard let name = words.first, !name.isEmpty else { throw .usage("--exec needs a command") }
        if name.contains("/") {
            if let problem = problem(with: name) { throw .failure("cannot run '\(name)': \(problem)") }
            return ExternalCommand(path: name, arguments: words)
        }
        let directories = (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false)
        for directory in directories {
            let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + name
            if problem(with: candidate) == nil { return ExternalCommand(path: candidate, arguments: words) }
        }
        throw .failure("cannot run '\(name)': no such command in PATH")
    }

    /// Why `path` cannot be run (no such file, not executable, a directory); nil when it can.
    private static func problem(with path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return SystemError.current }
        if (info.st_mode & S_IFMT) == S_IFDIR { return SystemError.describe(EISDIR) }
        guard access(path, X_OK) == 0 else { return SystemError.current }
        return nil
    }
}

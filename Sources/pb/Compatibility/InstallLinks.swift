#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import PasteboardCLI
import PasteboardSystem

/// `pb install-links DIR`: symbolic links to pb named `pbcopy`, `pbpaste`, `xclip`, `xsel`,
/// `wl-copy` and `wl-paste`, so scripts and editors that call those names reach pasteboardd.
///
/// A name that exists already is left alone unless it is already pb (a link to it, or a hard
/// link): someone's real xclip is never replaced.
struct InstallLinks: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install-links",
        abstract: "Link the names other clipboard tools are called by (xclip, wl-paste, pbcopy, …) to pb.",
        discussion: """
            Creates DIR/NAME -> pb for each NAME (default: \(CompatibilityTool.linkNames.joined(separator: ", "))). \
            Started under one of these names, pb behaves as that tool, with its usual options, on \
            pasteboardd's pasteboards (see pb(1), COMPATIBILITY). Useful on a machine reached over \
            SSH, or a desktop without the originals; on a desktop where the bridge is off, do not \
            put DIR before the real tools in PATH: your desktop's clipboard would no longer be theirs.

            A NAME that exists in DIR and is not already pb is refused (exit 1) and left as it is; \
            one that is pb already is reported and kept. With --remove, the links to pb are removed \
            and anything else is left.
            """
    )

    @Argument(help: ArgumentHelp("The directory for the links (it must exist).", valueName: "dir"), completion: .directory)
    var directory: String

    @Argument(help: ArgumentHelp("Which names (default: all of them).", valueName: "name"))
    var names: [String] = []

    @Flag(name: .long, help: "Remove the links to pb instead.")
    var remove = false

    func validate() throws {
        for name in names where CompatibilityTool(rawValue: name) == nil {
            throw ValidationError("'\(name)' is not a name pb answers to (\(CompatibilityTool.linkNames.joined(separator: ", ")))")
        }
    }

    func run() throws {
        var info = stat()
        guard stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw CLIError.failure("\(directory) is not a directory")
        }
        let executable = try Self.ownExecutable()
        var refused = 0
        for name in names.isEmpty ? CompatibilityTool.linkNames : names {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            switch LinkState(path: path, executable: executable) {
            case .absent where remove:
                Output.printOut("\(path): no such link")
            case .absent:
                guard symlink(executable.path, path) == 0 else {
                    Output.printError("pb: cannot create \(path): \(SystemError.current)")
                    refused += 1
                    continue
                }
                Output.printOut("\(path) -> \(executable.path)")
            case .ours where remove:
                guard unlink(path) == 0 else {
                    Output.printError("pb: cannot remove \(path): \(SystemError.current)")
                    refused += 1
                    continue
                }
                Output.printOut("removed \(path)")
            case .ours:
                Output.printOut("\(path) is pb already")
            case .other(let what):
                Output.printError("pb: \(path) exists and is not pb (\(what)); left as it is")
                refused += 1
            }
        }
        if refused > 0 { throw CLIError.quietFailure }
    }

    /// This executable: its path and its file's identity.
    static func ownExecutable() throws -> (path: String, device: UInt, inode: UInt) {
        var info = stat()
        guard let path = CompanionExecutable.ownPath, stat("/proc/self/exe", &info) == 0 else {
            throw CLIError.failure("cannot find pb's own executable: \(SystemError.current)")
        }
        return (path, UInt(info.st_dev), UInt(info.st_ino))
    }

    /// What a name in the directory is.
    enum LinkState {
        /// Nothing by that name.
        case absent
        /// pb: a link that resolves to this executable's file, or a hard link of it.
        case ours
        /// Something else, described.
        case other(String)

        init(path: String, executable: (path: String, device: UInt, inode: UInt)) {
            var own = stat()
            guard lstat(path, &own) == 0 else {
                self = errno == ENOENT ? .absent : .other(SystemError.current)
                return
            }
            var target = stat()
            if stat(path, &target) == 0, UInt(target.st_dev) == executable.device, UInt(target.st_ino) == executable.inode {
                self = .ours
            } else if (own.st_mode & S_IFMT) == S_IFLNK {
                self = .other("a symbolic link to something else")
            } else if (own.st_mode & S_IFMT) == S_IFDIR {
                self = .other("a directory")
            } else {
                self = .other("a file")
            }
        }
    }
}

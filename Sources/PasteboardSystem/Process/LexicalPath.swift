#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Paths taken apart and made absolute by their text alone (the files need not exist, and no
/// symbolic link is followed): what a program does with a path a user typed before it hands it
/// to the daemon, which works in another directory.
public enum LexicalPath {
    /// `path` made absolute against the current directory, its text otherwise kept (".." is not
    /// resolved here: behind a symbolic link it means what the kernel says, see `normalized`);
    /// `path` as it is when the current directory cannot be read.
    public static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let directory = currentDirectory else { return path }
        return join(directory, path)
    }

    /// The current directory; nil when it cannot be read (removed, or too long).
    public static var currentDirectory: String? {
        guard let cwd = getcwd(nil, 0) else { return nil }
        defer { free(cwd) }
        return String(cString: cwd)
    }

    /// An absolute path with ".", ".." and empty components resolved by their text, for paths
    /// that are compared or stored (the gallery's image paths), not only opened.
    public static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Everything before the last "/" ("/" for top-level paths, "." if there is no slash).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Everything after the last "/".
    public static func lastComponent(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    /// `directory` + "/" + `name`, without doubling the root slash.
    public static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}

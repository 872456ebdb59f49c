import Glibc

/// Purely lexical path helpers (the files involved need not exist).
enum Paths {
    /// `path` made absolute against the current directory, with ".", ".." and repeated slashes removed.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return normalized(path) }
        guard let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        return normalized(String(cString: cwd) + "/" + path)
    }

    /// An absolute path with ".", ".." and empty components resolved lexically.
    static func normalized(_ path: String) -> String {
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
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Everything after the last "/".
    static func lastComponent(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    /// `directory` + "/" + `name`, without doubling the root slash.
    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Finds one of the project's programs the way its other programs start it: next to the
/// running executable first (an unpacked release, `.build/debug`), else on `PATH`. `pb` starts
/// `pasteboardd` so, `pasteboardd` starts `pasteboard-bridge`, and the bench its tools.
public enum CompanionExecutable {
    /// The running executable's path (from /proc/self/exe); nil when unreadable.
    public static var ownPath: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The directory of the running executable (from /proc/self/exe); nil when unreadable.
    public static var ownDirectory: String? {
        guard let path = ownPath, let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }

    /// `name` next to the running executable, else the first executable `name` in `path`
    /// (a colon-separated list; only absolute directories count); nil when there is none.
    public static func locate(_ name: String, path: String?) -> String? {
        if let directory = ownDirectory {
            let candidate = directory + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return onPath(name, path: path)
    }

    /// The first executable `name` in `path` (absolute directories only), ignoring the
    /// running executable's own directory.
    public static func onPath(_ name: String, path: String?) -> String? {
        for directory in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where directory.hasPrefix("/") {
            let candidate = String(directory) + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}

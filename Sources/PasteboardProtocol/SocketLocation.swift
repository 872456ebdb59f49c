#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the daemon listens and clients connect.
public enum SocketLocation {
    /// `$PASTEBOARD_SOCKET` if set, else `$XDG_RUNTIME_DIR/pasteboard/pasteboardd.sock`,
    /// else `/tmp/pasteboard-$UID/pasteboardd.sock`.
    public static func socketPath(environment: [String: String]) -> String {
        socketPath { environment[$0] }
    }

    /// The socket path for this process's environment.
    public static func currentSocketPath() -> String {
        socketPath(lookup: environmentValue)
    }

    /// The value of this process's environment variable `name`; nil when it is not set.
    /// (Cheaper than `currentEnvironment()` for one variable: no dictionary of all of them.)
    public static func environmentValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    private static func socketPath(lookup: (String) -> String?) -> String {
        if let explicit = lookup("PASTEBOARD_SOCKET"), !explicit.isEmpty { return explicit }
        if let runtime = lookup("XDG_RUNTIME_DIR"), !runtime.isEmpty {
            return runtime + "/pasteboard/pasteboardd.sock"
        }
        return "/tmp/pasteboard-\(getuid())/pasteboardd.sock"
    }

    /// The directory part of a socket path ("." when there is none).
    public static func directory(of socketPath: String) -> String {
        guard let slash = socketPath.lastIndex(of: "/") else { return "." }
        if slash == socketPath.startIndex { return "/" }
        return String(socketPath[..<slash])
    }

    /// The current process's environment as a dictionary.
    public static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let string = String(cString: entry)
            if let equals = string.firstIndex(of: "=") {
                result[String(string[..<equals])] = String(string[string.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}

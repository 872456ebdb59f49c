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
        socketPath(lookup: ProcessEnvironment.value)
    }

    /// The path this process's environment gives when `PASTEBOARD_SOCKET` is not set:
    /// `$XDG_RUNTIME_DIR/pasteboard/pasteboardd.sock`, else `/tmp/pasteboard-$UID/pasteboardd.sock`.
    ///
    /// A client checks the directory of this path before it connects (it must be the user's own
    /// and writable by no one else, as the daemon makes it), since another user may have made it
    /// first; an explicit `PASTEBOARD_SOCKET` may lie in a shared directory and is not checked so.
    public static func currentDerivedSocketPath() -> String {
        derivedSocketPath(lookup: ProcessEnvironment.value)
    }

    private static func socketPath(lookup: (String) -> String?) -> String {
        if let explicit = lookup("PASTEBOARD_SOCKET"), !explicit.isEmpty { return explicit }
        return derivedSocketPath(lookup: lookup)
    }

    private static func derivedSocketPath(lookup: (String) -> String?) -> String {
        if let runtime = lookup("XDG_RUNTIME_DIR"), !runtime.isEmpty {
            return runtime + "/pasteboard/pasteboardd.sock"
        }
        return "/tmp/pasteboard-\(getuid())/pasteboardd.sock"
    }
}

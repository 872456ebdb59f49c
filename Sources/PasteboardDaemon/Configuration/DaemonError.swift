/// Reasons the daemon cannot start or keep running.
package enum DaemonError: Error, Sendable, CustomStringConvertible {
    /// Another daemon already serves this socket.
    case alreadyRunning(socketPath: String, pid: Int32?)
    /// Another daemon, serving another socket, uses this state directory.
    case stateDirectoryInUse(directory: String, pid: Int32?, socketPath: String?)
    /// One of the daemon's directories (`kind` says which) is unsafe or cannot be made.
    case unsafeDirectory(path: String, kind: OwnDirectory.Kind, reason: String)
    /// A file of the daemon's in one of its directories is not a regular file of this user
    /// (or, for the socket, not a socket).
    case unsafeFile(path: String, reason: String)
    /// A system call failed.
    case system(operation: String, path: String, errno: Int32)
    /// systemd passed this process a socket (`LISTEN_PID`, `LISTEN_FDS`) that it cannot serve.
    case socketActivation(String)

    package var description: String {
        switch self {
        case .alreadyRunning(let path, let pid):
            "another pasteboardd\(pid.map { " (pid \($0))" } ?? "") is already serving \(path)"
        case .stateDirectoryInUse(let directory, let pid, let socketPath):
            "the state directory \(directory) is in use by another pasteboardd"
                + (pid.map { " (pid \($0))" } ?? "") + (socketPath.map { " serving \($0)" } ?? "")
                + "; give this daemon its own with --state-directory DIR (or its own XDG_STATE_HOME), or keep nothing on disk with --memory-only"
        case .unsafeDirectory(let path, let kind, let reason):
            "refusing to use \(kind) \(path): \(reason)"
        case .unsafeFile(let path, let reason):
            "refusing to use \(path): \(reason)"
        case .system(let operation, let path, let code):
            "\(operation) \(path): \(SystemError.describe(code))"
        case .socketActivation(let reason):
            "cannot serve the socket systemd passed (LISTEN_FDS): \(reason)"
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PasteboardSystem

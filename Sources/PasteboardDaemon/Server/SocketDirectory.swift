#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The directory holding the daemon's socket and lock file: private to the user (0700).
package enum SocketDirectory {
    /// Creates `path` with mode 0700 if missing (parents too, each 0700); refuses an existing
    /// directory owned by another user or writable by group or others (see `OwnDirectory`).
    package static func prepare(_ path: String) throws(DaemonError) {
        try OwnDirectory.prepare(path, kind: .socket)
    }
}

/// An exclusive lock beside the socket (`<socket>.lock`, holding the daemon's pid) that makes
/// the daemon single-instance: a second daemon fails to take it and leaves the first alone.
package final class InstanceLock: Sendable {
    private let file: HeldLockFile

    /// The lock file's path.
    package var path: String { file.path }

    /// Takes the lock for `socketPath`, or throws `alreadyRunning` naming the holder's pid.
    package init(socketPath: String) throws(DaemonError) {
        file = try HeldLockFile(path: socketPath + ".lock", holder: "\(getpid())") { holder in
            .alreadyRunning(socketPath: socketPath, pid: Int32(holder.filter(\.isNumber)))
        }
    }
}

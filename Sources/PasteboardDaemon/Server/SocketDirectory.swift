#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PasteboardProtocol

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
    /// The lock file's path.
    package let path: String
    private let descriptor: Int32

    /// Takes the lock for `socketPath`, or throws `alreadyRunning` naming the holder's pid.
    package init(socketPath: String) throws(DaemonError) {
        path = socketPath + ".lock"
        // Never through a symbolic link, nor blocking on a FIFO put in its place.
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else {
            if errno == ELOOP { throw .unsafeFile(path: path, reason: "it is a symbolic link") }
            throw .system(operation: "open", path: path, errno: errno)
        }
        if let problem = OwnFile.problem(fd) {
            close(fd)
            throw .unsafeFile(path: path, reason: problem)
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = read(fd, &buffer, buffer.count)
            close(fd)
            guard code == EWOULDBLOCK else { throw .system(operation: "flock", path: path, errno: code) }
            let text = count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
            throw .alreadyRunning(socketPath: socketPath, pid: Int32(text.filter(\.isNumber)))
        }
        descriptor = fd
        let pid = "\(getpid())\n"
        _ = ftruncate(fd, 0)
        _ = pid.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    deinit {
        close(descriptor)
    }
}

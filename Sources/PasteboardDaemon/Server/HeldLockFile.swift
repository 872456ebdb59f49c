#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An exclusive `flock` on a file of the daemon's, held for as long as the object lives (the
/// kernel releases it however the process ends), with one line in the file naming its holder,
/// which a process that fails to take it reads back for its message.
package final class HeldLockFile: Sendable {
    /// The lock file's path.
    package let path: String
    private let descriptor: Int32

    /// Takes the lock on `path` (a regular file of this user's, made with mode 0600 when
    /// missing) and writes `holder` into it; when another process holds it, throws what `busy`
    /// makes of that process's line.
    package init(path: String, holder: String, busy: (String) -> DaemonError) throws(DaemonError) {
        self.path = path
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
            // A holder's line is short: a pid and a socket path.
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(fd, &buffer, buffer.count)
            close(fd)
            guard code == EWOULDBLOCK else { throw .system(operation: "flock", path: path, errno: code) }
            let text = count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
            throw busy(text.split(separator: "\n").first.map(String.init) ?? "")
        }
        descriptor = fd
        let line = holder + "\n"
        _ = ftruncate(fd, 0)
        _ = line.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    deinit {
        close(descriptor)
    }
}

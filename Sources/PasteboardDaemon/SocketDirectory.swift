#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PasteboardProtocol

/// The directory holding the daemon's socket and lock file: private to the user (0700).
public enum SocketDirectory {
    /// Creates `path` with mode 0700 if missing (parents too, each 0700); refuses an existing
    /// directory owned by another user or writable by group or others.
    public static func prepare(_ path: String) throws(DaemonError) {
        var info = stat()
        if stat(path, &info) != 0 {
            guard errno == ENOENT else { throw .system(operation: "stat", path: path, errno: errno) }
            let parent = SocketLocation.directory(of: path)
            if parent != path, parent != "/", parent != "." { try prepareParent(parent) }
            if mkdir(path, 0o700) != 0, errno != EEXIST { throw .system(operation: "mkdir", path: path, errno: errno) }
            guard stat(path, &info) == 0 else { throw .system(operation: "stat", path: path, errno: errno) }
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .unsafeDirectory(path: path, reason: "it is not a directory") }
        guard info.st_uid == getuid() else {
            throw .unsafeDirectory(path: path, reason: "it is owned by uid \(info.st_uid), not \(getuid())")
        }
        guard info.st_mode & 0o022 == 0 else {
            throw .unsafeDirectory(path: path, reason: "it is writable by group or others (mode \(String(info.st_mode & 0o777, radix: 8)))")
        }
    }

    private static func prepareParent(_ path: String) throws(DaemonError) {
        var info = stat()
        if stat(path, &info) == 0 { return }
        let parent = SocketLocation.directory(of: path)
        if parent != path, parent != "/", parent != "." { try prepareParent(parent) }
        if mkdir(path, 0o700) != 0, errno != EEXIST { throw .system(operation: "mkdir", path: path, errno: errno) }
    }
}

/// An exclusive lock beside the socket (`<socket>.lock`, holding the daemon's pid) that makes
/// the daemon single-instance: a second daemon fails to take it and leaves the first alone.
public final class InstanceLock: Sendable {
    /// The lock file's path.
    public let path: String
    private let descriptor: Int32

    /// Takes the lock for `socketPath`, or throws `alreadyRunning` naming the holder's pid.
    public init(socketPath: String) throws(DaemonError) {
        path = socketPath + ".lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .system(operation: "open", path: path, errno: errno) }
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

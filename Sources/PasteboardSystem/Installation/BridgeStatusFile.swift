#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the desktop bridge of the daemon at a socket path keeps its status and its lock:
/// `<socket>.bridge` (JSON, mode 0600) and `<socket>.bridge.lock`, in the socket's directory,
/// which the daemon made its user's own (0700).
///
/// The bridge holds an exclusive `flock` on the lock file for as long as it runs: a second
/// bridge for the same daemon (the daemon's own child and a user unit of the graphical
/// session) waits for it instead of fighting it over the selections, and `pb bridge` tells a
/// running bridge from a stale status by trying the lock.
public struct BridgeStatusFile: Sendable {
    /// The status file's path.
    public let path: String
    /// The lock file's path.
    public let lockPath: String

    /// The files of the daemon listening at `socketPath`.
    public init(socketPath: String) {
        path = socketPath + ".bridge"
        lockPath = socketPath + ".bridge.lock"
    }

    /// A failure to read or write the status, for a message.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Writes `status` in place of the file (a temporary file renamed over it, mode 0600). The
    /// temporary file is made anew (`O_EXCL`), so whatever was planted at its path (a FIFO
    /// that would block the open, a link) is never opened. Callers serialise their writes.
    public func write(_ status: BridgeStatus) throws(Failure) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes: [UInt8]
        do { bytes = Array(try encoder.encode(status)) } catch { throw Failure(description: "cannot encode the bridge status: \(error)") }
        let temporary = path + ".tmp"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else { throw Failure(description: "cannot write \(temporary): \(SystemError.current)") }
        let written = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw Failure(description: "cannot write \(path): \(SystemError.current)")
        }
    }

    /// The status, or nil when there is no file. Refuses a file that is not a regular file of
    /// this user's, or that group or others may write: another user's words are not shown as
    /// the bridge's.
    public func read() throws(Failure) -> BridgeStatus? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw Failure(description: "cannot read \(path): \(SystemError.current)")
        }
        defer { close(fd) }
        if let problem = Self.ownRegularFileProblem(fd) { throw Failure(description: "\(path) \(problem)") }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(description: "cannot read \(path): \(SystemError.current)") }
        // A status is a few hundred bytes; anything much larger is not one.
        let limit = 64 * 1024
        guard info.st_size >= 0, info.st_size <= limit else { throw Failure(description: "\(path) is too large to be a bridge status") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let count = bytes.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw Failure(description: "cannot read \(path): \(SystemError.current)") }
        do {
            return try JSONDecoder().decode(BridgeStatus.self, from: Data(bytes.prefix(count)))
        } catch {
            throw Failure(description: "\(path) is not a bridge status: \(error)")
        }
    }

    /// Whether a bridge holds the lock now (runs), tried without waiting. A lock file that is
    /// not a regular file of this user's is held by no bridge (`lock` refuses it).
    public func isHeld() -> Bool {
        let fd = open(lockPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard Self.ownRegularFileProblem(fd) == nil else { return false }
        return flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }

    /// Takes the lock for a bridge, waiting while another bridge holds it, and returns its
    /// descriptor (held until the process exits). `onWait` is called once if it must wait.
    /// Refuses a lock file that is not a regular file of this user's (a FIFO planted there
    /// would otherwise block the open, another user's file would let that user hold us off).
    public func lock(onWait: () -> Void = {}) throws(Failure) -> Int32 {
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else { throw Failure(description: "cannot open \(lockPath): \(SystemError.current)") }
        if let problem = Self.ownRegularFileProblem(fd) {
            close(fd)
            throw Failure(description: "\(lockPath) \(problem); remove it")
        }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return fd }
        onWait()
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(fd)
                throw Failure(description: "cannot lock \(lockPath): \(SystemError.current)")
            }
        }
        return fd
    }

    /// Why the open file `fd` is not a regular file of this user's that only they may write,
    /// or nil when it is.
    static func ownRegularFileProblem(_ fd: Int32) -> String? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return "cannot be examined: \(SystemError.current)" }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return "is not a regular file" }
        guard info.st_uid == getuid(), info.st_mode & 0o022 == 0 else {
            return "is not this user's own (owner \(info.st_uid), mode \(String(info.st_mode & 0o777, radix: 8)))"
        }
        return nil
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
private let systemRead = Glibc.read
#elseif canImport(Musl)
private let systemWrite = Musl.write
private let systemRead = Musl.read
#endif

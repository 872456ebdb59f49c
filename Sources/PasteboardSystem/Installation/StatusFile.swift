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

/// A status file of one of the project's processes, beside the daemon's socket, and the lock
/// its process holds while it runs: the desktop bridge's (`BridgeStatusFile`), each link's
/// (`pb link`). The socket's directory is the user's own (0700).
///
/// The process holds an exclusive `flock` on the lock file for as long as it runs: a second
/// one for the same thing waits for it instead of fighting it, and a reader tells a running
/// process from a stale status by trying the lock.
public struct StatusFile<Status: Codable & Sendable>: Sendable {
    /// The status file's path.
    public let path: String
    /// The lock file's path.
    public let lockPath: String
    /// What the file holds, in words ("a bridge status").
    let kind: String

    /// The files at `path` and `path.lock`, holding `kind`.
    public init(path: String, kind: String) {
        self.path = path
        self.lockPath = path + ".lock"
        self.kind = kind
    }

    /// A failure to read or write the status, for a message.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Writes `status` in place of the file (a temporary file renamed over it, mode 0600). The
    /// temporary file is made anew (`O_EXCL`), so whatever was planted at its path (a FIFO
    /// that would block the open, a link) is never opened. Callers serialise their writes.
    public func write(_ status: Status) throws(Failure) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes: [UInt8]
        do { bytes = Array(try encoder.encode(status)) } catch { throw Failure(description: "cannot encode \(kind): \(error)") }
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
    /// this user's, or that group or others may write: another user's words are not shown as ours.
    public func read() throws(Failure) -> Status? {
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
        guard info.st_size >= 0, info.st_size <= limit else { throw Failure(description: "\(path) is too large to be \(kind)") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let count = bytes.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw Failure(description: "cannot read \(path): \(SystemError.current)") }
        do {
            return try JSONDecoder().decode(Status.self, from: Data(bytes.prefix(count)))
        } catch {
            throw Failure(description: "\(path) is not \(kind): \(error)")
        }
    }

    /// Whether a process holds the lock now (runs), tried without waiting. A lock file that is
    /// not a regular file of this user's is held by no one (`lock` refuses it).
    public func isHeld() -> Bool {
        let fd = open(lockPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard Self.ownRegularFileProblem(fd) == nil else { return false }
        return flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }

    /// Takes the lock, waiting while another process holds it (unless `waits` is false: then
    /// nil), and returns its descriptor (held until the process exits). `onWait` is called once
    /// if it must wait. Refuses a lock file that is not a regular file of this user's (a FIFO
    /// planted there would otherwise block the open, another user's file would let that user
    /// hold us off).
    public func lock(waits: Bool = true, onWait: () -> Void = {}) throws(Failure) -> Int32? {
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else { throw Failure(description: "cannot open \(lockPath): \(SystemError.current)") }
        if let problem = Self.ownRegularFileProblem(fd) {
            close(fd)
            throw Failure(description: "\(lockPath) \(problem); remove it")
        }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return fd }
        guard waits else {
            close(fd)
            return nil
        }
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

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PasteboardProtocol
import PasteboardSystem

/// `<state>/data`, open: the directory the spool files live in, held by descriptor so that
/// every name is resolved in it (`openat`, `linkat`, `unlinkat`) and a directory swapped in
/// for it afterwards is never written to. Checked like every directory of ours: mode 0700
/// (no group or other write), owned by this user, never a symbolic link.
final class SpoolDirectory: Sendable {
    /// The directory's path, for messages.
    let path: String
    /// The open directory (O_RDONLY | O_DIRECTORY | O_NOFOLLOW).
    let fd: Int32

    /// Creates `path` (0700) if missing and opens it; throws `storage-failed` naming the
    /// directory and why it cannot be used.
    init(path: String) throws(ProtocolError) {
        do {
            try OwnDirectory.prepare(path, kind: .data, followsLink: false)
        } catch {
            throw ProtocolError(.storageFailed, error.description)
        }
        guard let fd = Self.open(path) else {
            throw ProtocolError(.storageFailed, "cannot open the data directory \(path): \(SystemError.current)")
        }
        var info = stat()
        do throws(DaemonError) {
            guard fstat(fd, &info) == 0 else { throw .system(operation: "stat", path: path, errno: errno) }
            try OwnDirectory.check(info, path: path, kind: .data)
        } catch {
            close(fd)
            throw ProtocolError(.storageFailed, error.description)
        }
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    /// The path of `name` in the directory, for messages.
    func path(of name: String) -> String {
        path + "/" + name
    }

    /// Syncs the directory, so names linked into it or removed from it last; returns errno
    /// on failure.
    func sync() -> Int32? {
        fsync(fd) == 0 ? nil : errno
    }

    /// Removes `name` (a missing one is no failure).
    func remove(_ name: String) {
        unlinkat(fd, name, 0)
    }

    private static func open(_ path: String) -> Int32? {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        return fd >= 0 ? fd : nil
    }
}

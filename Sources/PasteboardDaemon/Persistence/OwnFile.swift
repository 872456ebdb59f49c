#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PasteboardSystem

/// How the daemon opens a file of its own in one of its directories (the lock file, the
/// journal, archives, history entries, their temporary files): never through a symbolic link
/// (`O_NOFOLLOW`), never blocking on a FIFO or device put in its place (`O_NONBLOCK`, which a
/// regular file ignores), and only when what was opened is a regular file of this user.
enum OwnFile {
    /// The flags added to every open of a file of ours.
    static let flags: Int32 = O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK

    /// Opens `path` with `access` (plus `flags`) and checks what was opened; on failure returns
    /// why, naming the path.
    static func open(_ path: String, _ access: Int32, mode: mode_t = 0o600) -> Result<Int32, ArchiveFile.Failure> {
        let fd = Glibc.open(path, access | flags, mode)
        guard fd >= 0 else {
            if errno == ELOOP { return .failure(ArchiveFile.Failure(description: "cannot open \(path): it is a symbolic link")) }
            return .failure(ArchiveFile.failure("open", path))
        }
        if let problem = problem(fd) {
            close(fd)
            return .failure(ArchiveFile.Failure(description: "cannot use \(path): \(problem)"))
        }
        return .success(fd)
    }

    /// Why the open file `fd` is not a file of ours (a regular file owned by this user), or nil.
    static func problem(_ fd: Int32) -> String? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return "cannot stat it: \(SystemError.current)" }
        guard info.st_mode & S_IFMT == S_IFREG else { return "it is not a regular file (it is \(kind(of: info.st_mode)))" }
        guard info.st_uid == getuid() else { return "it is owned by uid \(info.st_uid), not \(getuid())" }
        return nil
    }

    /// What a file of mode `mode` is, in words.
    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFLNK: "a symbolic link"
        default: "a regular file"
        }
    }
}

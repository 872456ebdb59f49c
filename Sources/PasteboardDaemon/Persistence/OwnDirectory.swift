#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PasteboardSystem

/// A directory the daemon keeps its files in (the socket directory, the state directory, its
/// `history/`, its `data/`): private to the user (0700), and named by its role in every refusal, so the
/// message says which directory is wrong.
package enum OwnDirectory {
    /// Which of the daemon's directories a path is, as error messages name it.
    package enum Kind: String, Sendable, CustomStringConvertible {
        case socket = "socket directory"
        case state = "state directory"
        case history = "history directory"
        /// `<state>/data`, where large representations are stored as files of their own.
        case data = "data directory"

        package var description: String { rawValue }
    }

    /// Creates `path` with mode 0700 if missing (parents too, each 0700); refuses an existing
    /// one that is not a directory, is owned by another user, or is writable by group or others.
    /// With `followsLink` false (a directory inside one of ours, which the daemon creates
    /// itself), a symbolic link in its place is refused too.
    package static func prepare(_ path: String, kind: Kind, followsLink: Bool = true) throws(DaemonError) {
        var info = stat()
        if status(path, &info, followsLink: followsLink) != 0 {
            guard errno == ENOENT else { throw .system(operation: "stat", path: path, errno: errno) }
            let parent = LexicalPath.directory(of: path)
            if parent != path, parent != "/", parent != "." { try prepareParent(parent) }
            if mkdir(path, 0o700) != 0, errno != EEXIST { throw .system(operation: "mkdir", path: path, errno: errno) }
            guard status(path, &info, followsLink: followsLink) == 0 else { throw .system(operation: "stat", path: path, errno: errno) }
        }
        try check(info, path: path, kind: kind)
    }

    /// Throws unless `info` (of `path`) is a directory of this user that group and others
    /// cannot write to.
    static func check(_ info: stat, path: String, kind: Kind) throws(DaemonError) {
        switch info.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: throw .unsafeDirectory(path: path, kind: kind, reason: "it is a symbolic link, not a directory")
        default: throw .unsafeDirectory(path: path, kind: kind, reason: "it is not a directory")
        }
        guard info.st_uid == getuid() else {
            throw .unsafeDirectory(path: path, kind: kind, reason: "it is owned by uid \(info.st_uid), not \(getuid())")
        }
        guard info.st_mode & 0o022 == 0 else {
            throw .unsafeDirectory(path: path, kind: kind, reason: "it is writable by group or others (mode \(String(info.st_mode & 0o777, radix: 8)))")
        }
    }

    private static func status(_ path: String, _ info: inout stat, followsLink: Bool) -> Int32 {
        followsLink ? stat(path, &info) : lstat(path, &info)
    }

    private static func prepareParent(_ path: String) throws(DaemonError) {
        var info = stat()
        if stat(path, &info) == 0 { return }
        let parent = LexicalPath.directory(of: path)
        if parent != path, parent != "/", parent != "." { try prepareParent(parent) }
        if mkdir(path, 0o700) != 0, errno != EEXIST { throw .system(operation: "mkdir", path: path, errno: errno) }
    }
}

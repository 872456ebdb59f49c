#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PasteboardSystem

/// Writing a small file of the user's configuration whole or not at all: into a directory made
/// (0700) where missing and checked to be the user's own, through a hidden temporary file beside
/// it and a rename, so a reader (a daemon reloading) sees the old file or the new one, never a
/// part, and a failure leaves the old one.
///
/// `AtomicFileWriter` (PasteboardCLI) is pb's, for outputs of any kind and size, streamed and
/// reported as pb reports; this one is the library's, for a few bytes in the user's own directory.
enum OwnFileWriter {
    /// Creates `directory` and its missing ancestors, each mode 0700 (as the XDG Base Directory
    /// specification asks of `$XDG_CONFIG_HOME`), then checks that it is a directory owned by
    /// this process's user.
    static func prepareDirectory(_ directory: String) throws(PasteboardError) {
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                throw failure("cannot create the directory \(prefix)")
            }
        }
        var info = stat()
        guard stat(directory, &info) == 0 else { throw failure("cannot examine \(directory)") }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw PasteboardError.io("\(directory) is not a directory") }
        guard info.st_uid == geteuid() else {
            throw PasteboardError.io("\(directory) belongs to uid \(info.st_uid), not to this user (uid \(geteuid())): nothing was written")
        }
    }

    /// Writes `bytes` as the file `name` in `directory` (mode `NewFileMode.regularFile`), replacing it
    /// atomically; `directory` must exist (see `prepareDirectory`). Returns the file's path.
    static func replace(_ name: String, in directory: String, with bytes: [UInt8]) throws(PasteboardError) -> String {
        let path = directory + "/" + name
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw PasteboardError.io("\(path) is a directory")
        }
        // Hidden and not ending in the name's suffix: no reader of the directory takes it for one of its files.
        var template = Array((directory + "/." + name + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure("cannot create a file in \(directory)") }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var committed = false
        defer { if !committed { unlink(temporary) } }
        // The mode the umask gives, as an editor saving the file would (`NewFileMode` reads the
        // umask without setting it); the directory, 0700 when made here, guards the rest.
        fchmod(fd, NewFileMode.regularFile)
        var offset = 0
        let wrote = bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let count = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
        guard wrote, fsync(fd) == 0 else {
            let error = failure("cannot write \(temporary)")
            close(fd)
            throw error
        }
        guard close(fd) == 0 else { throw failure("cannot write \(temporary)") }
        guard rename(temporary, path) == 0 else { throw failure("cannot rename \(temporary) to \(path)") }
        committed = true
        // The rename itself is made durable with the directory.
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
        return path
    }

    /// `PasteboardError.io` with `what` and the reason `errno` gives.
    private static func failure(_ what: String) -> PasteboardError {
        PasteboardError.io("\(what): \(SystemError.current)")
    }
}

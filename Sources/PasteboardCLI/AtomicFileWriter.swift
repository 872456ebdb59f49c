#if canImport(Glibc)
import Glibc
#endif
public import NIOCore
import Pasteboard
import PasteboardSystem

/// Writes an output file through a temporary file in the same directory and a rename, so a
/// failed paste never leaves a partial file (and never clobbers the old one).
///
/// A path that names something other than a regular file (`/dev/null`, a FIFO, a terminal)
/// cannot be replaced by a rename: it is opened and written directly instead. A new file gets
/// the mode the umask gives (`NewFileMode`), as the shell's `>` would.
public final class AtomicFileWriter {
    public let path: String
    /// The temporary file renamed over `path` on commit; nil when writing `path` directly.
    private let temporaryPath: String?
    private var fd: Int32
    private var committed = false

    /// The descriptor written to, for a copy made inside the kernel (see `PasteJob`); -1 once
    /// committed or abandoned.
    public var descriptor: Int32 { fd }

    /// Creates the temporary file beside `path`, or opens `path` itself when it exists and is
    /// not a regular file.
    public init(path: String) throws(CLIError) {
        self.path = path
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG, (info.st_mode & S_IFMT) != S_IFDIR {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw .failure("cannot open \(path): \(SystemError.current)") }
            self.fd = fd
            self.temporaryPath = nil
            return
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array((directory + "." + name + ".pb-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .failure("cannot create \(path): \(SystemError.current)") }
        self.fd = fd
        self.temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        fchmod(fd, NewFileMode.regularFile)
    }

    /// Appends bytes.
    public func write(_ buffer: ByteBuffer) throws(CLIError) {
        do throws(CLIError) {
            try Output.write(buffer, to: fd)
        } catch {
            throw .failure("cannot write \(path): \(SystemError.current)")
        }
    }

    /// Flushes to disk and renames over `path` (or, writing `path` directly, closes it).
    public func commit() throws(CLIError) {
        guard let temporaryPath else {
            let closed = close(fd)
            fd = -1
            guard closed == 0 else { throw .failure("cannot write \(path): \(SystemError.current)") }
            committed = true
            return
        }
        guard fsync(fd) == 0, close(fd) == 0 else {
            let code = errno
            fd = -1
            throw .failure("cannot write \(path): \(SystemError.describe(code))")
        }
        fd = -1
        guard rename(temporaryPath, path) == 0 else {
            throw .failure("cannot rename into \(path): \(SystemError.current)")
        }
        committed = true
    }

    deinit {
        if fd >= 0 { close(fd) }
        if !committed, let temporaryPath { unlink(temporaryPath) }
    }
}

#if canImport(Glibc)
import Glibc
#endif
import NIOCore

/// Writes an output file through a temporary file in the same directory and a rename, so a
/// failed paste never leaves a partial file (and never clobbers the old one).
public final class AtomicFileWriter {
    public let path: String
    private let temporaryPath: String
    private var fd: Int32
    private var committed = false

    /// Creates the temporary file beside `path`.
    public init(path: String) throws(CLIError) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array((directory + "." + name + ".pb-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .failure("cannot create \(path): \(String(cString: strerror(errno)))") }
        self.fd = fd
        self.temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        fchmod(fd, 0o644 & ~Self.currentUmask())
    }

    /// Appends bytes.
    public func write(_ buffer: ByteBuffer) throws(CLIError) {
        do throws(CLIError) {
            try Output.write(buffer, to: fd)
        } catch {
            throw .failure("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Flushes to disk and renames over `path`.
    public func commit() throws(CLIError) {
        guard fsync(fd) == 0, close(fd) == 0 else {
            let code = errno
            fd = -1
            throw .failure("cannot write \(path): \(String(cString: strerror(code)))")
        }
        fd = -1
        guard rename(temporaryPath, path) == 0 else {
            throw .failure("cannot rename into \(path): \(String(cString: strerror(errno)))")
        }
        committed = true
    }

    deinit {
        if fd >= 0 { close(fd) }
        if !committed { unlink(temporaryPath) }
    }

    private static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }
}

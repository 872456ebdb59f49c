#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NIOCore
import PasteboardProtocol
import PasteboardSystem

/// A file the daemon reads for a file representation, off the event loops and the
/// cooperative pool (blocking reads run on NIO's thread pool).
struct FileSource: ~Copyable {
    private let fd: Int32
    /// The path, for messages.
    let path: String
    /// The file's size when it was opened.
    let size: Int

    /// Opens `path` for reading; throws `source-unavailable` naming the path and the reason.
    init(path: String) async throws(ProtocolError) {
        try await self.init(path: path) { () throws(ProtocolError) in
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw Self.failure(path, errno) }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                let code = errno
                close(fd)
                throw Self.failure(path, code)
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                close(fd)
                throw ProtocolError(.sourceUnavailable, "cannot read \(path): not a regular file")
            }
            return (fd, Int(info.st_size))
        }
    }

    /// Opens the stored file `spool` for reading; throws `source-unavailable` when it is gone,
    /// not a regular file of ours, or no longer holds `spool.size` bytes (changed behind the
    /// daemon's back): `SpoolFile.openForReading`.
    init(spool: SpoolFile) async throws(ProtocolError) {
        try await self.init(path: spool.path) { () throws(ProtocolError) in (try spool.openForReading(), spool.size) }
    }

    /// Runs `opener` (which opens the file and returns its descriptor and size, or throws why
    /// not) on a thread of its own (`BlockingWork`), since an open can block (a FIFO, a stalled
    /// network file system).
    private init(path: String, opener: @escaping @Sendable () throws(ProtocolError) -> (fd: Int32, size: Int)) async throws(ProtocolError) {
        (fd, size) = try await BlockingWork.run(opener)
        self.path = path
    }

    deinit { close(fd) }

    /// Reads up to `count` bytes at `offset`; an empty buffer at the end of the file.
    func read(at offset: Int, count: Int) async throws(ProtocolError) -> ByteBuffer {
        let fd = fd
        let path = path
        return try await BlockingWork.run { () throws(ProtocolError) -> ByteBuffer in
            var buffer = ByteBufferAllocator().buffer(capacity: count)
            var failure: Int32 = 0
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { pointer in
                while true {
                    let got = pread(fd, pointer.baseAddress, count, off_t(offset))
                    if got >= 0 { return got }
                    if errno != EINTR { failure = errno; return 0 }
                }
            }
            if failure != 0 { throw Self.failure(path, failure) }
            return buffer
        }
    }

    private static func failure(_ path: String, _ code: Int32) -> ProtocolError {
        ProtocolError(.sourceUnavailable, "cannot read \(path): \(SystemError.describe(code))")
    }
}

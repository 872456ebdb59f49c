#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
import NIOCore

/// The framing of the daemon's files in the state directory (pasteboards and history entries).
///
/// Layout: an 8-byte magic, a 4-byte big-endian header length, the header (JSON), the body (the
/// bytes of every eager representation, in order), and a 4-byte big-endian CRC-32 of everything
/// before it. A file is written to a temporary name (`<file>.tmp`, mode 0600), synced, and
/// renamed into place, then the directory is synced, so a crash leaves the old file or the new
/// one, never a mix; a file that fails any check on reading is reported, never served.
enum ArchiveFile {
    /// A failure to write or read a file, for logs and error messages.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The suffix of a file being written.
    static let temporarySuffix = ".tmp"

    /// Writes `magic`, `header` and `body` durably to `target` in `directory`: temporary file,
    /// fsync, rename, fsync of the directory. On failure the previous file stays as it was.
    static func write(magic: [UInt8], header: [UInt8], body: [ByteBuffer], to target: String, in directory: String) throws(Failure) {
        var prefix = magic
        prefix += bigEndian(UInt32(header.count))
        prefix += header

        let temporary = target + temporarySuffix
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("create", temporary) }
        var crc: UInt32 = 0
        var failedErrno: Int32?
        func emit(_ bytes: UnsafeRawBufferPointer, checksummed: Bool = true) {
            guard failedErrno == nil else { return }
            if checksummed { crc = pasteboard_crc32(crc, bytes.baseAddress, bytes.count) }
            failedErrno = writeAll(fd, bytes)
        }
        prefix.withUnsafeBytes { emit($0) }
        for chunk in body { chunk.withUnsafeReadableBytes { emit($0) } }
        bigEndian(crc).withUnsafeBytes { emit($0, checksummed: false) }
        if failedErrno == nil, fsync(fd) != 0 { failedErrno = errno }
        if close(fd) != 0, failedErrno == nil { failedErrno = errno }
        if let failedErrno {
            unlink(temporary)
            throw Failure(description: "cannot write \(temporary): \(String(cString: strerror(failedErrno)))")
        }
        guard rename(temporary, target) == 0 else {
            let error = failure("rename into place", target)
            unlink(temporary)
            throw error
        }
        syncDirectory(directory)
    }

    /// Reads the file at `path`: its header bytes and its body (without the checksum). Throws
    /// when it is truncated, fails its checksum, or does not start with `magic`.
    static func read(_ path: String, magic: [UInt8], kind: String) throws(Failure) -> (header: [UInt8], body: ByteBuffer) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open", path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("stat", path) }
        let size = Int(info.st_size)
        guard size >= magic.count + 8 else { throw Failure(description: "\(path) is truncated (\(size) bytes)") }
        var buffer = ByteBufferAllocator().buffer(capacity: size)
        let readCount = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: size) { bytes in
            var offset = 0
            while offset < size {
                let count = Glibc.read(fd, bytes.baseAddress! + offset, size - offset)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                offset += count
            }
            return offset
        }
        guard readCount == size else { throw Failure(description: "\(path) could not be read whole") }
        let stored = buffer.getInteger(at: size - 4, as: UInt32.self)!
        let computed = buffer.withUnsafeReadableBytes { pasteboard_crc32(0, $0.baseAddress, size - 4) }
        guard stored == computed else { throw Failure(description: "\(path) fails its checksum (truncated or corrupt)") }
        buffer.moveWriterIndex(to: size - 4)
        guard buffer.readBytes(length: magic.count) == magic, let headerLength = buffer.readInteger(as: UInt32.self),
              Int(headerLength) <= buffer.readableBytes, let header = buffer.readBytes(length: Int(headerLength))
        else { throw Failure(description: "\(path) is not \(kind)") }
        return (header, buffer)
    }

    /// Removes `paths` (a missing one is no failure), then syncs `directory` so the removal lasts.
    static func remove(_ paths: [String], in directory: String) {
        for path in paths { unlink(path) }
        syncDirectory(directory)
    }

    /// Writes all of `bytes`; returns errno on failure.
    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }

    private static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }

    private static func failure(_ operation: String, _ path: String) -> Failure {
        Failure(description: "cannot \(operation) \(path): \(String(cString: strerror(errno)))")
    }
}

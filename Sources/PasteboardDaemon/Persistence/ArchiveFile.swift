#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
import NIOCore
import PasteboardSystem

/// The framing of the daemon's files in the state directory (pasteboards and history entries).
///
/// Layout: an 8-byte magic, a 4-byte big-endian header length, the header (JSON), the body (the
/// bytes of every eager representation, in order), and a 4-byte big-endian CRC-32 of everything
/// before it. A file is written to a temporary name (`<file>.tmp`, mode 0600), synced, and
/// renamed into place, then the directory is synced, so a crash leaves the old file or the new
/// one, never a mix; a file that fails any check on reading is reported, never served. Files
/// are opened as `OwnFile` says: never through a symbolic link, only when a regular file of ours.
enum ArchiveFile {
    /// A failure to write or read a file, for logs and error messages.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The suffix of a file being written.
    static let temporarySuffix = ".tmp"

    /// Writes `chunks`, a whole file's bytes (see `encoded`), durably to `target` in `directory`:
    /// temporary file, fsync, rename, and an fsync of the directory unless `syncsDirectory` is
    /// false (the caller syncs it once for several files). On failure the previous file stays
    /// as it was.
    static func write(_ chunks: [ByteBuffer], to target: String, in directory: String, syncsDirectory: Bool = true) throws(Failure) {
        let temporary = target + temporarySuffix
        let fd = try OwnFile.open(temporary, O_WRONLY | O_CREAT | O_TRUNC).get()
        var failedErrno = writeAll(fd, chunks)
        if failedErrno == nil, fsync(fd) != 0 { failedErrno = errno }
        if close(fd) != 0, failedErrno == nil { failedErrno = errno }
        if let failedErrno {
            unlink(temporary)
            throw Failure(description: "cannot write \(temporary): \(SystemError.describe(failedErrno))")
        }
        guard rename(temporary, target) == 0 else {
            let error = failure("rename into place", target)
            unlink(temporary)
            throw error
        }
        if syncsDirectory { syncDirectory(directory) }
    }

    /// The bytes of a file holding `magic`, `header` and `body`, checksum included, in order.
    static func encoded(magic: [UInt8], header: [UInt8], body: [ByteBuffer]) -> [ByteBuffer] {
        var prefix = ByteBuffer()
        prefix.reserveCapacity(magic.count + 4 + header.count)
        prefix.writeBytes(magic)
        prefix.writeInteger(UInt32(header.count))
        prefix.writeBytes(header)
        var crc = prefix.withUnsafeReadableBytes { pasteboard_crc32(0, $0.baseAddress, $0.count) }
        for chunk in body {
            crc = chunk.withUnsafeReadableBytes { pasteboard_crc32(crc, $0.baseAddress, $0.count) }
        }
        var trailer = ByteBuffer()
        trailer.writeInteger(crc)
        return [prefix] + body + [trailer]
    }

    /// Reads the file at `path`: its header bytes and its body (without the checksum). Throws
    /// when it is truncated, fails its checksum, or does not start with `magic`.
    static func read(_ path: String, magic: [UInt8], kind: String) throws(Failure) -> (header: [UInt8], body: ByteBuffer) {
        let fd = try OwnFile.open(path, O_RDONLY).get()
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("stat", path) }
        let size = Int(info.st_size)
        guard let buffer = readAll(fd, count: size) else { throw Failure(description: "\(path) could not be read whole") }
        return try decode(buffer, magic: magic, kind: kind, source: path)
    }

    /// The header bytes and body of `bytes`, one file's whole content (`source` names it in
    /// errors). Throws when it is truncated, fails its checksum, or does not start with `magic`.
    static func decode(_ bytes: ByteBuffer, magic: [UInt8], kind: String, source: String) throws(Failure) -> (header: [UInt8], body: ByteBuffer) {
        var buffer = bytes
        let size = buffer.readableBytes
        guard size >= magic.count + 8 else { throw Failure(description: "\(source) is truncated (\(size) bytes)") }
        guard buffer.withUnsafeReadableBytes(checksumMatches) else { throw Failure(description: "\(source) fails its checksum (truncated or corrupt)") }
        buffer.moveWriterIndex(to: buffer.readerIndex + size - 4)
        guard buffer.readBytes(length: magic.count) == magic, let headerLength = buffer.readInteger(as: UInt32.self),
              Int(headerLength) <= buffer.readableBytes, let header = buffer.readBytes(length: Int(headerLength))
        else { throw Failure(description: "\(source) is not \(kind)") }
        return (header, buffer)
    }

    /// Whether the last 4 bytes of `bytes` (at least 4) are the big-endian CRC-32 of the others.
    static func checksumMatches(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let size = bytes.count
        let stored = (size - 4..<size).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[$1]) }
        return stored == pasteboard_crc32(0, bytes.baseAddress, size - 4)
    }

    /// `count` bytes read from `fd` at its offset, or nil when fewer could be read.
    static func readAll(_ fd: Int32, count: Int) -> ByteBuffer? {
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        let readCount = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { bytes in
            var offset = 0
            while offset < count {
                let got = Glibc.read(fd, bytes.baseAddress! + offset, count - offset)
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { break }
                offset += got
            }
            return offset
        }
        return readCount == count ? buffer : nil
    }

    /// Removes `paths` (a missing one is no failure), then syncs `directory` so the removal lasts.
    static func remove(_ paths: [String], in directory: String) {
        for path in paths { unlink(path) }
        syncDirectory(directory)
    }

    /// Writes all of `chunks` at `fd`'s offset; returns errno on failure.
    static func writeAll(_ fd: Int32, _ chunks: [ByteBuffer]) -> Int32? {
        for chunk in chunks {
            let failed: Int32? = chunk.withUnsafeReadableBytes { bytes in
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
            if let failed { return failed }
        }
        return nil
    }

    /// Syncs `directory`, so renames and removals in it last.
    static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    static func failure(_ operation: String, _ path: String) -> Failure {
        Failure(description: "cannot \(operation) \(path): \(SystemError.current)")
    }
}

#if canImport(Glibc)
import PasteboardCLI
import Glibc
#endif
import NIOCore

/// Reading whole inputs (stdin, files) into chunks, never one giant reallocating buffer.
enum Input {
    static let chunkSize = 1 << 20

    /// Reads `fd` to its end. `describe` names the input in errors.
    static func readAll(fd: Int32, describe: String) throws(CLIError) -> [ByteBuffer] {
        var chunks: [ByteBuffer] = []
        let allocator = ByteBufferAllocator()
        while true {
            var buffer = allocator.buffer(capacity: chunkSize)
            var failure: Int32 = 0
            var sawEOF = false
            while buffer.writableBytes > 0 {
                let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 0) { pointer in
                    let n = read(fd, pointer.baseAddress, pointer.count)
                    if n < 0 { failure = errno; return 0 }
                    return n
                }
                if failure == EINTR { failure = 0; continue }
                if failure != 0 { throw .failure("cannot read \(describe): \(String(cString: strerror(failure)))") }
                if count == 0 { sawEOF = true; break }
            }
            if buffer.readableBytes > 0 { chunks.append(buffer) }
            if sawEOF { return chunks }
        }
    }

    /// Reads the file at `path` whole.
    static func readFile(_ path: String) throws(CLIError) -> [ByteBuffer] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .failure("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw .failure("cannot copy \(path): it is a directory")
        }
        return try readAll(fd: fd, describe: path)
    }

    /// The size and first `count` bytes of the regular file at `path` (for `copy --lazy`, which
    /// reads the rest only when a destination loads it).
    static func peekFile(_ path: String, count: Int) throws(CLIError) -> (size: Int, prefix: [UInt8]) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .failure("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .failure("cannot read \(path): \(String(cString: strerror(errno)))") }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .failure("cannot copy \(path) lazily: it is not a regular file")
        }
        var prefix = [UInt8](repeating: 0, count: count)
        let got = prefix.withUnsafeMutableBytes { read(fd, $0.baseAddress, count) }
        guard got >= 0 else { throw .failure("cannot read \(path): \(String(cString: strerror(errno)))") }
        return (Int(info.st_size), Array(prefix.prefix(got)))
    }

    /// The first `count` bytes across `chunks`.
    ///
    /// (`getBytes`, not appending a `readableBytesView` slice: that generic path instantiates
    /// its iterator's metadata by name at run time, a third of a 16-byte `pb copy`'s
    /// instructions in a static binary.)
    static func prefix(of chunks: [ByteBuffer], count: Int) -> [UInt8] {
        var result: [UInt8] = []
        for chunk in chunks where result.count < count {
            let length = min(count - result.count, chunk.readableBytes)
            result += chunk.getBytes(at: chunk.readerIndex, length: length) ?? []
        }
        return result
    }
}

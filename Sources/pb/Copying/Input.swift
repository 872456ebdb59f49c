#if canImport(Glibc)
import Glibc
#endif
import PasteboardCLI
import NIOCore
import Pasteboard
import PasteboardSystem

/// Reading inputs (stdin, files): small ones whole, into chunks (never one giant reallocating
/// buffer); larger ones as a stream read while it is sent.
enum Input {
    static let chunkSize = 1 << 20

    /// An input's bytes: all of them, or the first ones and a stream of the rest.
    enum Bytes {
        /// The input ended within `chunkSize` bytes (exactly what `readAll` returns).
        case whole([ByteBuffer])
        /// Larger: `stream` yields every byte (those read already first), read as it is sent;
        /// `prefix` is its first bytes, for sniffing the type.
        case stream(DataStream, prefix: [UInt8])
    }

    /// Reads stdin up to `chunkSize`: all of it when it ends there, else a stream of all of it.
    static func standardInput() throws(CLIError) -> Bytes {
        try start(fd: 0, owned: false, describe: "stdin")
    }

    /// Reads the file at `path` up to `chunkSize`: all of it when it ends there, else a stream
    /// of all of it.
    static func openFile(_ path: String) throws(CLIError) -> Bytes {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .failure("cannot open \(path): \(SystemError.current)") }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw .failure("cannot copy \(path): it is a directory")
        }
        return try start(fd: fd, owned: true, describe: path)
    }

    /// `fd`'s first `chunkSize` bytes, when that was all (then `fd` is closed when `owned`); else
    /// a stream that owns `fd` (or, when not `owned`, a duplicate of it: small input, the
    /// everyday case, costs no more system calls than reading it whole did).
    private static func start(fd: Int32, owned: Bool, describe: String) throws(CLIError) -> Bytes {
        func release() { if owned { close(fd) } }
        var handedOver = false
        var first = ByteBufferAllocator().buffer(capacity: chunkSize)
        var ended = false
        do throws(CLIError) {
            ended = try fill(&first, fd: fd, describe: describe)
            if !ended {
                // Exactly `chunkSize` so far: one more read tells whether that was all.
                var probe = ByteBufferAllocator().buffer(capacity: 64 << 10)
                ended = try fill(&probe, fd: fd, describe: describe, once: true) && probe.readableBytes == 0
                if !ended {
                    let prefix = prefix(of: [first], count: 4096)
                    let streamed = owned ? fd : dup(fd)
                    guard streamed >= 0 else { throw CLIError.failure("cannot read \(describe): \(SystemError.current)") }
                    do {
                        return .stream(try DataStream(descriptor: streamed, prefix: [first, probe], name: describe), prefix: prefix)
                    } catch {
                        handedOver = owned  // the stream closed what it was given
                        throw CLIError.failure(ErrorMessage.text(for: error))
                    }
                }
            }
        } catch {
            if !handedOver { release() }
            throw error
        }
        release()
        return .whole(first.readableBytes > 0 ? [first] : [])
    }

    /// All of `bytes`, read now into chunks (for `pb drag`, whose session may be lifted again
    /// after a lost daemon, so its items are sent more than once).
    static func whole(_ bytes: Bytes) throws(CLIError) -> [ByteBuffer] {
        switch bytes {
        case .whole(let chunks):
            return chunks
        case .stream(let stream, _):
            var chunks: [ByteBuffer] = []
            do {
                try stream.claim()
                while true {
                    let chunk = try stream.read(upTo: chunkSize)
                    if chunk.readableBytes == 0 { return chunks }
                    chunks.append(chunk)
                }
            } catch {
                throw .failure(ErrorMessage.text(for: error))
            }
        }
    }

    /// Reads `fd` into `buffer` until it is full (or, when `once`, one successful read); returns
    /// whether the input ended.
    private static func fill(_ buffer: inout ByteBuffer, fd: Int32, describe: String, once: Bool = false) throws(CLIError) -> Bool {
        while buffer.writableBytes > 0 {
            var failure: Int32 = 0
            let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 0) { pointer in
                let n = read(fd, pointer.baseAddress, pointer.count)
                if n < 0 { failure = errno; return 0 }
                return n
            }
            if failure == EINTR { continue }
            if failure != 0 { throw .failure("cannot read \(describe): \(SystemError.describe(failure))") }
            if count == 0 { return true }
            if once { return false }
        }
        return false
    }

    /// The size and first `count` bytes of the regular file at `path` (for `copy --lazy`, which
    /// reads the rest only when a destination loads it).
    ///
    /// Anything else is refused: a pipe, a FIFO (`mkfifo`) or `<(cmd)` can be read only once,
    /// and has no size to promise. The file is opened without blocking, so a FIFO nobody writes
    /// to is refused at once rather than waited on forever.
    static func peekFile(_ path: String, count: Int) throws(CLIError) -> (size: Int, prefix: [UInt8]) {
        let fd = try openRegularFile(path)
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .failure("cannot read \(path): \(SystemError.current)") }
        var prefix = [UInt8](repeating: 0, count: count)
        let got = prefix.withUnsafeMutableBytes { read(fd, $0.baseAddress, count) }
        guard got >= 0 else { throw .failure("cannot read \(path): \(SystemError.current)") }
        return (Int(info.st_size), Array(prefix.prefix(got)))
    }

    /// A descriptor of `path` for reading, when it is a regular file: opened with O_NONBLOCK (which
    /// a regular file ignores) so that a FIFO without a writer cannot hang the open, then checked.
    static func openRegularFile(_ path: String) throws(CLIError) -> Int32 {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .failure("cannot open \(path): \(SystemError.current)") }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = SystemError.current
            close(fd)
            throw .failure("cannot read \(path): \(reason)")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            let what = (info.st_mode & S_IFMT) == S_IFIFO ? "a pipe or FIFO, which can be read only once" : "not a regular file"
            throw .failure("cannot serve \(path) lazily: it is \(what); copy it without --lazy")
        }
        return fd
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

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
package import NIOCore
import PasteboardSystem
import Synchronization

/// The bytes of an eager representation read from a descriptor (a file, a pipe) while they are
/// sent, not before: a copy of a file of any size then holds only a frame's worth of it in the
/// sending process, the daemon's flow control pacing the reads.
///
/// It owns its descriptor and closes it when released. It can be read once: a stream that was
/// uploaded (or failed part-way) cannot be uploaded again. A stream may also read from a
/// `DataStreamSource` instead of a descriptor: inputs joined or changed as they are read.
public final class DataStream: Sendable {
    /// The byte count when known up front (a regular file's size from where reading starts,
    /// bytes already read ahead included); nil for a pipe or a source.
    public let size: Int?
    /// Names the input in errors ("photo.png", "stdin").
    let name: String
    /// The descriptor read from, or -1 for a stream of `source`.
    private let descriptor: Int32
    private let source: (any DataStreamSource)?
    private let state: Mutex<State>

    private struct State: Sendable {
        var prefix: [ByteBuffer]
        var delivered = 0
        var atEnd = false
        var claimed = false
    }

    /// A stream of the file at `path`, from its start. Opening happens now, so a missing or
    /// unreadable file (or a directory) is reported here rather than half-way through a write.
    public convenience init(contentsOfFile path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw PasteboardError.io("cannot open \(path): \(SystemError.current)") }
        try self.init(descriptor: fd, prefix: [], name: path)
    }

    /// A stream of what `descriptor` yields from its current position to its end. The stream
    /// takes ownership of `descriptor` and closes it.
    public convenience init(readingFrom descriptor: Int32) throws {
        try self.init(descriptor: descriptor, prefix: [], name: "descriptor \(descriptor)")
    }

    /// A stream of `prefix` (bytes already read from `descriptor`) followed by the rest of
    /// `descriptor`, which it takes ownership of; `name` names the input in errors.
    package init(descriptor: Int32, prefix: [ByteBuffer], name: String) throws(PasteboardError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = SystemError.current
            close(descriptor)
            throw PasteboardError.io("cannot read \(name): \(reason)")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw PasteboardError.io("cannot copy \(name): it is a directory")
        }
        let prefixCount = prefix.reduce(0) { $0 + $1.readableBytes }
        if (info.st_mode & S_IFMT) == S_IFREG {
            let position = lseek(descriptor, 0, SEEK_CUR)
            size = position >= 0 ? prefixCount + max(0, Int(info.st_size) - Int(position)) : nil
        } else {
            size = nil
            if (info.st_mode & S_IFMT) == S_IFIFO {
                // A larger pipe lets the writer (`cat F | pb copy`) run ahead by 1 MiB, where
                // 64 KiB made both sides switch every read; refused sizes change nothing.
                _ = pasteboard_grow_pipe(descriptor, Self.pipeSize)
            }
        }
        self.descriptor = descriptor
        self.source = nil
        self.name = name
        self.state = Mutex(State(prefix: prefix.filter { $0.readableBytes > 0 }))
    }

    /// A stream of what `source` yields, of no size known up front; `name` names it in errors.
    package init(source: any DataStreamSource, name: String) {
        self.descriptor = -1
        self.source = source
        self.size = nil
        self.name = name
        self.state = Mutex(State(prefix: []))
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The size asked for a pipe read from (the default `/proc/sys/fs/pipe-max-size`).
    private static let pipeSize: Int32 = 1 << 20

    /// Marks the stream as being sent; throws when it was sent (or begun) before. An upload
    /// claims each stream before its first read, so a retried write (after a lost connection)
    /// fails clearly instead of sending the rest of the bytes, or none, as if they were all.
    package func claim() throws(PasteboardError) {
        try state.withLock { state throws(PasteboardError) in
            if state.claimed { throw PasteboardError.io("\(name) was sent already: a stream's bytes can be read only once") }
            state.claimed = true
        }
    }

    /// The next at most `count` bytes (more than 0); an empty buffer at the end. A regular file
    /// that ends before its `size` (it was truncated while read) throws, and so does a read error:
    /// either way the representation is incomplete and the write must be abandoned. May block
    /// (a pipe whose writer is slow).
    package func read(upTo count: Int) throws(PasteboardError) -> ByteBuffer {
        precondition(count > 0)
        return try state.withLock { state throws(PasteboardError) -> ByteBuffer in
            if !state.prefix.isEmpty {
                var first = state.prefix[0]
                let slice = first.readSlice(length: min(count, first.readableBytes))!
                if first.readableBytes == 0 { state.prefix.removeFirst() } else { state.prefix[0] = first }
                state.delivered += slice.readableBytes
                return slice
            }
            if state.atEnd { return ByteBuffer() }
            if let source {
                let chunk: ByteBuffer
                do throws(PasteboardError) {
                    chunk = try source.read(upTo: count)
                } catch {
                    state.atEnd = true
                    throw error
                }
                if chunk.readableBytes == 0 { state.atEnd = true }
                state.delivered += chunk.readableBytes
                return chunk
            }
            let wanted = size.map { min(count, $0 - state.delivered) } ?? count
            if wanted <= 0 {
                state.atEnd = true  // a file that grew while read: its size was announced, so stop there
                return ByteBuffer()
            }
            // Reads until `wanted` bytes or the end: a pipe gives at most its 64 KiB buffer per
            // read, and a full frame costs the daemon one write where four small ones cost four.
            var buffer = ByteBufferAllocator().buffer(capacity: wanted)
            while buffer.readableBytes < wanted {
                var failure: Int32 = 0
                let missing = wanted - buffer.readableBytes
                let got = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 0) { pointer in
                    let result = readDescriptor(descriptor, pointer.baseAddress, min(pointer.count, missing))
                    if result < 0 { failure = errno }
                    return max(result, 0)
                }
                if failure == EINTR { continue }
                if failure != 0 {
                    state.atEnd = true
                    throw PasteboardError.io("cannot read \(name): \(SystemError.describe(failure))")
                }
                state.delivered += got
                if got == 0 {
                    state.atEnd = true
                    if let size, state.delivered < size {
                        throw PasteboardError.io("\(name) changed while it was read: it ended after \(state.delivered) of \(size) bytes")
                    }
                    break
                }
            }
            return buffer
        }
    }
}

extension DataStream: DataStreamSource {}

/// `read(2)`, by a name a `DataStream` method cannot shadow.
private func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

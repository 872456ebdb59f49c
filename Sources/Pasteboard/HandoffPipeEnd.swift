#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
import NIOCore
import PasteboardProtocol

/// This process's end of a handed-off transfer's pipe (see `HandoffChannel`), made
/// non-blocking. A call that must wait polls in short slices and yields between them, so a
/// cancelled task stops within about 20 ms and other tasks keep running. Closed on deinit.
final class HandoffPipeEnd {
    private var fd: Int32
    private static let slice: Int32 = 20  // milliseconds per poll
    /// Bytes moved per read, write or splice.
    static let chunk = 1 << 20

    init(_ fd: Int32) {
        self.fd = fd
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close() }

    /// Closes the pipe end now (a writer's close is the reader's end of stream).
    func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }

    // MARK: The destination's end

    /// Reads everything up to end of stream: into `sink` inside the kernel (splice) when one is
    /// given and accepts it, else a chunk at a time into `chunk`. `progress` hears throttled
    /// reports against `total`, short of the last byte (the final report is the daemon's).
    /// Returns the byte count.
    ///
    /// A splice that fails has moved nothing, so every failure (a sink that takes no splice, a
    /// full disk, a reader that left) switches to copying through `chunk`, whose own write then
    /// reports the problem in the caller's terms.
    func drain(total: Int?, sink: Int32?, progress: (LoadProgress) -> Void,
               chunk: (ByteBuffer) async throws -> Void) async throws -> Int {
        var throttle = ProgressThrottle(total: total)
        var completed = 0
        var spliceInto = sink
        var stalledSplices = 0
        var buffer = ByteBufferAllocator().buffer(capacity: Self.chunk)
        while true {
            var moved = 0
            var failure: Int32 = 0
            if let target = spliceInto {
                moved = pasteboard_splice(fd, target, Self.chunk)
                if moved < 0 { failure = errno }
                // A sink that is itself a full non-blocking pipe also gets plain copies.
                if (failure != 0 && failure != EAGAIN && failure != EINTR) || (failure == EAGAIN && stalledSplices >= 3) {
                    spliceInto = nil
                    continue
                }
                stalledSplices = failure == EAGAIN ? stalledSplices + 1 : 0
            } else {
                buffer.clear()
                moved = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: Self.chunk) { pointer in
                    let result = Glibc.read(fd, pointer.baseAddress, pointer.count)
                    if result < 0 { failure = errno }
                    return max(result, 0)
                }
            }
            switch failure {
            case 0: break
            case EINTR: continue
            case EAGAIN:
                try await waitUntil(POLLIN)
                continue
            default:
                throw PasteboardError.io("cannot read the handed-off data: \(String(cString: strerror(failure)))")
            }
            if moved == 0 { return completed }
            if spliceInto == nil { try await chunk(buffer) }
            completed += moved
            if completed != total, throttle.shouldReport(completed) {
                progress(LoadProgress(completed: completed, total: total))
            }
        }
    }

    // MARK: The source's end

    /// Writes all of `bytes`. Throws `CancellationError` when the destination closed its end.
    func write(_ bytes: ByteBuffer) async throws {
        var remaining = bytes
        while remaining.readableBytes > 0 {
            var failure: Int32 = 0
            let written = remaining.withUnsafeReadableBytes { pointer in
                let result = Glibc.write(fd, pointer.baseAddress, min(pointer.count, Self.chunk))
                if result < 0 { failure = errno }
                return max(result, 0)
            }
            try await settle(failure)
            remaining.moveReaderIndex(forwardBy: written)
        }
    }

    /// Moves the rest of the file `file` into the pipe inside the kernel (splice), a chunk at a
    /// time, calling `moved` with each count. Throws `CancellationError` when the destination
    /// closed its end, and an I/O error naming `path` when the file cannot be read.
    func splice(from file: Int32, path: String, moved: (Int) -> Void) async throws {
        while true {
            let count = pasteboard_splice(file, fd, Self.chunk)
            if count == 0 { return }
            if count < 0 {
                let failure = errno
                if failure == EAGAIN || failure == EINTR || failure == EPIPE {
                    try await settle(failure)
                    continue
                }
                throw PasteboardError.io("cannot read \(path): \(String(cString: strerror(failure)))")
            }
            moved(count)
        }
    }

    /// Deals with a write's errno: nothing to do, wait for room, or the reader is gone.
    private func settle(_ failure: Int32) async throws {
        switch failure {
        case 0, EINTR: return
        case EAGAIN: try await waitUntil(POLLOUT)
        case EPIPE: throw CancellationError()
        default: throw PasteboardError.io("cannot write the handed-off data: \(String(cString: strerror(failure)))")
        }
    }

    /// Returns once `events` (POLLIN, POLLOUT) may be possible, or the pipe's other end closed.
    private func waitUntil(_ events: Int32) async throws {
        while true {
            try Task.checkCancellation()
            var entry = pollfd(fd: fd, events: Int16(events), revents: 0)
            if poll(&entry, 1, Self.slice) > 0 { return }
            await Task.yield()
        }
    }
}

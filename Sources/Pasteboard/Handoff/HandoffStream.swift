#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
import PasteboardSystem
internal import NIOCore
internal import PasteboardProtocol
internal import PasteboardSystem

/// This process's end of a handed-off transfer: a socket connected straight to the other side
/// (see `HandoffChannel`), made non-blocking. A call that must wait for the other side waits
/// on a thread of its own (`BlockingWait`), never on the caller's executor: a `@MainActor`
/// caller of `Pasteboard.load` keeps its main actor while a slow source makes it wait, and a
/// cancelled task stops at once. Closed on deinit.
final class HandoffStream {
    private var fd: Int32
    /// Where waits for the socket happen; nil when no descriptor was left for its pipe (then a
    /// wait is a short poll and a sleep, on the caller, as a last resort).
    private let waiting = BlockingWait()
    /// Bytes moved per read, write or sendfile.
    static let chunk = 1 << 20

    init(_ fd: Int32) {
        self.fd = fd
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close() }

    /// The socket, for a wait that must end when the destination leaves (-1 once closed).
    var descriptor: Int32 { fd }

    /// Closes the socket now (the source's close is the destination's end of stream).
    func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }

    // MARK: The destination's end

    /// Reads everything up to end of stream, a chunk at a time into `chunk`. `progress` hears
    /// throttled reports against `total`, short of the last byte (the final report is the
    /// daemon's). Returns the byte count.
    nonisolated(nonsending) func drain(total: Int?, progress: (LoadProgress) -> Void, chunk: (ByteBuffer) async throws -> Void) async throws -> Int {
        var throttle = ProgressThrottle(total: total)
        var completed = 0
        var buffer = ByteBufferAllocator().buffer(capacity: Self.chunk)
        while true {
            var failure: Int32 = 0
            buffer.clear()
            let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: Self.chunk) { pointer in
                let result = Glibc.read(fd, pointer.baseAddress, pointer.count)
                if result < 0 { failure = errno }
                return max(result, 0)
            }
            switch failure {
            case 0: break
            case EINTR: continue
            case EAGAIN:
                try await waitUntil(POLLIN)
                continue
            default:
                throw PasteboardError.io("cannot read the handed-off data: \(SystemError.describe(failure))")
            }
            if count == 0 { return completed }
            try await chunk(buffer)
            completed += count
            if completed != total, throttle.shouldReport(completed) {
                progress(LoadProgress(completed: completed, total: total))
            }
        }
    }

    // MARK: The source's end

    /// Sends all of `bytes`. Throws `CancellationError` when the destination closed its end.
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

    /// Sends the rest of the file `file` inside the kernel (sendfile), a chunk at a time,
    /// calling `sent` with each count. Throws `CancellationError` when the destination closed
    /// its end, and an I/O error naming `path` when the file cannot be read.
    func send(file: Int32, path: String, sent: (Int) -> Void) async throws {
        while true {
            let count = pasteboard_send_file(fd, file, Self.chunk)
            if count == 0 { return }
            if count < 0 {
                let failure = errno
                if failure == EAGAIN || failure == EINTR || failure == EPIPE || failure == ECONNRESET {
                    try await settle(failure)
                    continue
                }
                throw PasteboardError.io("cannot read \(path): \(SystemError.describe(failure))")
            }
            sent(count)
        }
    }

    /// Deals with a send's errno: nothing to do, wait for room, or the destination is gone.
    private func settle(_ failure: Int32) async throws {
        switch failure {
        case 0, EINTR: return
        case EAGAIN: try await waitUntil(POLLOUT)
        case EPIPE, ECONNRESET: throw CancellationError()
        default: throw PasteboardError.io("cannot send the handed-off data: \(SystemError.describe(failure))")
        }
    }

    /// Returns once `events` (POLLIN, POLLOUT) may be possible, or the other end closed;
    /// throws `CancellationError` when the task is cancelled first.
    nonisolated(nonsending) private func waitUntil(_ events: Int32) async throws {
        guard let waiting else {
            while true {
                try Task.checkCancellation()
                var entry = pollfd(fd: fd, events: Int16(events), revents: 0)
                if poll(&entry, 1, 0) > 0 { return }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        switch await waiting.wait(for: fd, events: Int16(events)) {
        case .ready, .timedOut, .hungUp: return
        case .cancelled: throw CancellationError()
        }
    }
}

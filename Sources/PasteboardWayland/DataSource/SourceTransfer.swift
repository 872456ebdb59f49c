import CPasteboardSystem
import PasteboardSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One reader's request for one MIME type of a ``SelectionSource``: the provider writes the
/// bytes here, in pieces as it produces them, and the transfer closes the reader's pipe when the
/// provider returns.
///
/// The pipe is the backpressure: ``write(_:)`` returns only when the reader has taken the bytes
/// into the pipe, so a provider that loads lazily (the bridge, from the daemon) never holds more
/// than the piece it is writing. The descriptor is made non-blocking and each wait for room is a
/// poll(2) on the transfer's own serial `BlockingQueue` (a thread of its own while it waits), never on the
/// connection's event thread or a Swift concurrency thread: several sends run at once, and one
/// slow reader holds up nobody else. Each wait is bounded by ``stallTimeout``: a reader that
/// stops reading with the pipe full (suspended, or a pipeline that no longer drains) ends that
/// transfer with ``WaylandError/readerStalled(mimeType:bytesWritten:)`` instead of pinning the
/// provider for ever. Cancelling the provider's task stops a waiting write at once.
///
/// A reader that closes early (`wl-paste | head -c 10`) is the normal end of that transfer:
/// ``WaylandError/readerClosed(mimeType:bytesWritten:)``, which the source reports as such, not
/// as a failure. A pipe's write cannot take send(2)'s MSG_NOSIGNAL, so writes go through
/// `pasteboard_write_nosigpipe`, which blocks SIGPIPE in the writing thread for the call and
/// takes back the signal it raised: the process does not die of SIGPIPE whatever its
/// disposition (the daemon's or a test runner's), and nothing process-wide is changed.
public final class SourceTransfer: Sendable {
    /// The MIME type the reader asked for (one the source offered).
    public let mimeType: String
    /// The selection the source owns; nil for a transfer of a drag (`WaylandWindow.serve`).
    public let kind: SelectionKind?
    /// The longest one write waits for a reader that takes nothing before the transfer is abandoned.
    public let stallTimeout: Duration

    /// The reader's pipe until ``finish()`` closes it (-1 after), closed exactly once.
    private let descriptorSlot: Atomic<Int32>
    private let written = Atomic<Int>(0)
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Where writes wait and the descriptor is closed, in order.
    private let queue = BlockingQueue()

    /// Takes ownership of `descriptor` (closed by ``finish()``, also when this throws).
    init(descriptor: Int32, mimeType: String, kind: SelectionKind?, stallTimeout: Duration) throws(WaylandError) {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
            let error = errno
            close(descriptor)
            throw .sendFailed(mimeType: mimeType, errno: error)
        }
        // A larger pipe (best effort: the reader's pipe may be no pipe, or the limit lower)
        // lets a megabyte go in one write and one wake-up of the reader, instead of sixteen
        // ping-pongs through the default 64 KiB: a large transfer was bound by those switches.
        _ = fcntl(descriptor, Self.setPipeSize, Self.pipeBytes)
        var wake: [Int32] = [-1, -1]
        guard pasteboard_pipe(&wake, O_CLOEXEC | O_NONBLOCK) == 0 else {
            let error = errno
            close(descriptor)
            throw .pipeFailed(errno: error)
        }
        (wakeRead, wakeWrite) = (wake[0], wake[1])
        descriptorSlot = Atomic(descriptor)
        self.mimeType = mimeType
        self.kind = kind
        self.stallTimeout = stallTimeout
    }

    /// Linux's F_SETPIPE_SZ (Glibc's module leaves it out: it needs _GNU_SOURCE).
    private static let setPipeSize: Int32 = 1031
    /// The pipe size asked for: 1 MiB, the default `/proc/sys/fs/pipe-max-size`, so an
    /// unprivileged bridge gets it.
    static let pipeBytes: Int32 = 1 << 20

    deinit {
        let descriptor = descriptorSlot.exchange(-1, ordering: .acquiringAndReleasing)
        if descriptor >= 0 { close(descriptor) }
        close(wakeRead)
        close(wakeWrite)
    }

    /// The bytes the reader has taken so far.
    public var bytesWritten: Int { written.load(ordering: .relaxed) }

    /// Writes all of `bytes` into the reader's pipe, returning once they are in it.
    ///
    /// Throws ``WaylandError/readerClosed(mimeType:bytesWritten:)`` when the reader left (stop
    /// producing and return), ``WaylandError/readerStalled(mimeType:bytesWritten:)`` after
    /// ``stallTimeout`` without room, `CancellationError` when the task is cancelled, and
    /// ``WaylandError/sendFailed(mimeType:errno:)`` for any other failure or a write after the
    /// transfer ended.
    public func write(_ bytes: some Collection<UInt8> & Sendable) async throws {
        guard !bytes.isEmpty else { return }
        try Task.checkCancellation()
        let array = Array(bytes)
        try await withTaskCancellationHandler {
            try await queue.run { () throws -> Void in try self.writeAll(array) }
        } onCancel: {
            cancel()
        }
    }

    /// Makes a waiting write throw `CancellationError`, and every later one (any thread).
    func cancel() {
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWrite, &byte, 1)
    }

    /// Closes the reader's pipe (its end of file), after any write still queued.
    func finish() {
        queue.submit {
            let descriptor = self.descriptorSlot.exchange(-1, ordering: .acquiringAndReleasing)
            if descriptor >= 0 { close(descriptor) }
        }
    }

    /// The blocking part, on ``queue``.
    private func writeAll(_ bytes: [UInt8]) throws {
        let descriptor = descriptorSlot.load(ordering: .acquiring)
        guard descriptor >= 0 else { throw WaylandError.sendFailed(mimeType: mimeType, errno: EBADF) }
        try bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> Void in
            var offset = 0
            while offset < raw.count {
                let count = pasteboard_write_nosigpipe(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if count > 0 {
                    offset += count
                    written.add(count, ordering: .relaxed)
                    continue
                }
                let error = count < 0 ? errno : EAGAIN
                switch error {
                case EAGAIN:
                    try waitForRoom(descriptor)
                case EPIPE:
                    throw WaylandError.readerClosed(mimeType: mimeType, bytesWritten: bytesWritten)
                default:
                    throw WaylandError.sendFailed(mimeType: mimeType, errno: error)
                }
            }
        }
    }

    /// Waits, at most ``stallTimeout``, until the pipe has room, the reader left, or cancel.
    private func waitForRoom(_ descriptor: Int32) throws {
        let deadline = ContinuousClock.now + stallTimeout
        while true {
            var pollers = [pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let left = deadline - .now
            guard left > .zero else { throw WaylandError.readerStalled(mimeType: mimeType, bytesWritten: bytesWritten) }
            let ready = poll(&pollers, 2, left.milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw WaylandError.sendFailed(mimeType: mimeType, errno: errno)
            }
            if ready == 0 { throw WaylandError.readerStalled(mimeType: mimeType, bytesWritten: bytesWritten) }
            if pollers[1].revents != 0 { throw CancellationError() }
            // POLLERR on a pipe's write end: the reader left; the next write says EPIPE.
            return
        }
    }
}

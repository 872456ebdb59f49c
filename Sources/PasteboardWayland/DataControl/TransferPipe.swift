import CPasteboardSystem
import PasteboardSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The read end of a transfer's pipe, read with a bounded wait and a way to stop it from
/// another thread (task cancellation), since the owner is another process that may never write.
final class TransferPipe: Sendable {
    /// What the owner's end of the pipe did.
    enum Event {
        case data([UInt8])
        case endOfFile
        case timedOut
        case cancelled
    }

    let readEnd: Int32
    /// Our copy of the write end until ``closeWriteEnd()`` (-1 after), closed exactly once.
    private let writeEndSlot: Atomic<Int32>
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init() throws(WaylandError) {
        var data: [Int32] = [-1, -1]
        var wake: [Int32] = [-1, -1]
        guard pasteboard_pipe(&data, O_CLOEXEC) == 0 else { throw .pipeFailed(errno: errno) }
        guard pasteboard_pipe(&wake, O_CLOEXEC | O_NONBLOCK) == 0 else {
            let error = errno
            close(data[0])
            close(data[1])
            throw .pipeFailed(errno: error)
        }
        (readEnd, wakeRead, wakeWrite) = (data[0], wake[0], wake[1])
        writeEndSlot = Atomic(data[1])
    }

    deinit {
        close(readEnd)
        closeWriteEnd()
        close(wakeRead)
        close(wakeWrite)
    }

    /// Closes our copy of the write end once it was passed to the compositor, so that the
    /// owner closing its copy is end of file.
    func closeWriteEnd() {
        let descriptor = writeEndSlot.exchange(-1, ordering: .acquiringAndReleasing)
        if descriptor >= 0 { close(descriptor) }
    }

    /// The write end to pass to the owner (through the compositor).
    var writeEnd: Int32 { writeEndSlot.load(ordering: .acquiring) }

    /// Makes a waiting ``next(timeoutMilliseconds:)`` return `.cancelled` (any thread).
    func cancel() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// ``next(timeoutMilliseconds:capacity:)`` on a thread of its own (`BlockingWork`), so the
    /// wait blocks no Swift concurrency thread.
    func nextOffThread(timeoutMilliseconds: Int32, capacity: Int = 1 << 16) async throws(WaylandError) -> Event {
        try await BlockingWork.run { () throws(WaylandError) -> Event in try self.next(timeoutMilliseconds: timeoutMilliseconds, capacity: capacity) }
    }

    /// Waits up to `timeoutMilliseconds` for the owner to write or close, then reads.
    func next(timeoutMilliseconds: Int32, capacity: Int = 1 << 16) throws(WaylandError) -> Event {
        var pollers = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&pollers, 2, timeoutMilliseconds)
        if ready < 0 {
            if errno == EINTR { return try next(timeoutMilliseconds: timeoutMilliseconds, capacity: capacity) }
            throw .pipeFailed(errno: errno)
        }
        if ready == 0 { return .timedOut }
        if pollers[1].revents != 0 { return .cancelled }
        var buffer = [UInt8](repeating: 0, count: capacity)
        let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR || errno == EAGAIN { return try next(timeoutMilliseconds: timeoutMilliseconds, capacity: capacity) }
            throw .pipeFailed(errno: errno)
        }
        if count == 0 { return .endOfFile }
        buffer.removeSubrange(count...)
        return .data(buffer)
    }

    /// Streams what the owner writes into `chunk` until it closes its end; returns the byte
    /// count. `timeout` is the longest the owner may stay silent, neither writing nor closing
    /// (``WaylandError/transferTimedOut(mimeType:bytesReceived:)``); cancelling the task stops
    /// the wait at once. `chunk` may suspend: the next read waits for it.
    func drain(_ mimeType: String, timeout: Duration, chunk: ([UInt8]) async throws -> Void) async throws -> Int {
        var received = 0
        while true {
            let event = try await withTaskCancellationHandler {
                try await nextOffThread(timeoutMilliseconds: timeout.milliseconds)
            } onCancel: {
                cancel()
            }
            switch event {
            case .data(let bytes):
                received += bytes.count
                try await chunk(bytes)
            case .endOfFile:
                return received
            case .timedOut:
                throw WaylandError.transferTimedOut(mimeType: mimeType, bytesReceived: received)
            case .cancelled:
                throw CancellationError()
            }
        }
    }
}

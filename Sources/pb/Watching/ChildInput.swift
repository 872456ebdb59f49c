#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import PasteboardCLI
import PasteboardSystem
import Synchronization

/// The write end of a pipe that is a child's stdin. A write blocks while the child does not
/// read, so writes run in order on a serial `BlockingQueue`, never on Swift's cooperative threads.
final class ChildInput: Sendable {
    /// The child closed its stdin (or exited) before it read everything: not a failure, the
    /// command did not want the rest.
    struct Closed: Error {}

    /// The end the child reads, until `closeReadEnd()`.
    let readEnd: Int32
    private let readEndOpen = Mutex(true)
    private let writeEnd: Mutex<Int32>
    private let writing = BlockingQueue()

    /// A new pipe, close-on-exec at both ends (the child gets the read end as its stdin).
    init() throws(CLIError) {
        var ends: [Int32] = [-1, -1]
        // pipe2 is out of Swift's sight (_GNU_SOURCE); a child gets no descriptor but its stdin anyway.
        guard pipe(&ends) == 0 else { throw .failure("cannot create a pipe: \(SystemError.current)") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // Writing into a pipe whose reader left must fail with EPIPE, not end pb.
        Glibc.signal(SIGPIPE, SIG_IGN)
        readEnd = ends[0]
        writeEnd = Mutex(ends[1])
    }

    /// Closes `pb`'s copy of the read end (once the child has its own, or failed to start).
    func closeReadEnd() {
        readEndOpen.withLock { open in
            if open { close(readEnd) }
            open = false
        }
    }

    /// Writes all of `buffer`; throws `Closed` when the child no longer reads.
    func write(_ buffer: ByteBuffer) async throws {
        let fd = writeEnd.withLock { $0 }
        if let failure = await writing.run({ Self.writeAll(buffer, to: fd) }) { throw failure }
    }

    /// Closes the write end: the child reads end of file. Safe to call more than once.
    func finish() {
        writeEnd.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
    }

    deinit {
        closeReadEnd()
        finish()
    }

    private static func writeAll(_ buffer: ByteBuffer, to fd: Int32) -> (any Error)? {
        guard fd >= 0 else { return Closed() }
        return buffer.withUnsafeReadableBytes { bytes -> (any Error)? in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EPIPE { return Closed() }
                    return CLIError.failure("cannot write to the command's stdin: \(SystemError.current)")
                }
                offset += written
            }
            return nil
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A wait for a descriptor to become ready, on a `BlockingWork` thread, that the awaiting task's
/// cancellation ends: the thread polls the descriptor and a wake-up pipe of the waiter's, and
/// `withTaskCancellationHandler` writes to the pipe. What a non-blocking descriptor's reader or
/// writer in async code does instead of polling on the caller's executor.
///
/// One waiter per descriptor at a time; the pipe is made once and reused for every wait.
public final class BlockingWait: Sendable {
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// The outcome of one wait.
    public enum Outcome: Sendable, Equatable {
        /// The descriptor is ready for the events asked for (or its other end closed, or it failed:
        /// the next read or write says which).
        case ready
        /// The time passed first.
        case timedOut
        /// The waiting task was cancelled.
        case cancelled
        /// The descriptor watched for hang-up (`orHangUpOf`) was hung up first: its peer left.
        case hungUp
    }

    /// Makes the wake-up pipe; nil when no descriptors are left.
    public init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Waits until `fd` is ready for `events` (`POLLIN`, `POLLOUT`), at most `timeout` (nil: no
    /// bound), the calling task is cancelled, or `other`'s peer hangs up (a socket the result
    /// goes to, whose reader left). The caller's executor is free meanwhile.
    public func wait(for fd: Int32, events: Int16, orHangUpOf other: Int32? = nil, timeout: Duration? = nil) async -> Outcome {
        if Task.isCancelled { return .cancelled }
        drainWakeups()
        // Ready now: no thread is needed.
        var entry = pollfd(fd: fd, events: events, revents: 0)
        if poll(&entry, 1, 0) > 0 { return .ready }
        let milliseconds = timeout.map { Self.milliseconds($0) } ?? -1
        if milliseconds == 0 { return .timedOut }
        let wakeRead = wakeRead
        return await withTaskCancellationHandler {
            await BlockingWork.run {
                let deadline = milliseconds < 0 ? nil : ContinuousClock.now + .milliseconds(milliseconds)
                while true {
                    var entries = [pollfd(fd: fd, events: events, revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
                    if let other { entries.append(pollfd(fd: other, events: Self.hangUp, revents: 0)) }
                    let left = deadline.map { Self.milliseconds($0 - .now) } ?? -1
                    let ready = poll(&entries, nfds_t(entries.count), left)
                    if ready < 0 {
                        if errno == EINTR { continue }
                        return .ready  // the descriptor's own call reports the failure
                    }
                    if ready == 0 { return .timedOut }
                    if entries[1].revents != 0 { return .cancelled }
                    if entries.count > 2, entries[2].revents != 0 { return .hungUp }
                    return .ready
                }
            }
        } onCancel: {
            wake()
        }
    }

    /// Ends a wait in progress (any thread); a later wait is not affected.
    public func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// POLLRDHUP (Linux: the peer shut down its end; Glibc's module leaves it out), and hang-up.
    private static let hangUp = Int16(0x2000) | Int16(POLLHUP)

    private func drainWakeups() {
        var bytes = [UInt8](repeating: 0, count: 16)
        while read(wakeRead, &bytes, bytes.count) > 0 {}
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 || seconds > 0 else { return 0 }
        let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: total)
    }
}

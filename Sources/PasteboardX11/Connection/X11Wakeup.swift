#if canImport(Glibc)
import Glibc
#endif
import PasteboardSystem

/// Wakes a thread blocked in `X11Connection.waitForEvent` from another thread or task.
///
/// Why a pipe: the waiting thread sleeps in poll on the X socket, and only a descriptor can end
/// that sleep at once. The selection owner's transfers are fed by providers running as tasks;
/// each chunk they write signals the owner's wakeup, so the owner forwards it without waiting
/// for the next poll slice. Both ends are non-blocking: signals coalesce while one is pending.
public final class X11Wakeup: Sendable {
    /// The read end, polled by the waiting thread.
    let readFD: Int32
    private let writeFD: Int32

    public init() throws(X11Error) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw .invalidArgument("cannot create a wakeup pipe: \(SystemError.current)")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        (readFD, writeFD) = (fds[0], fds[1])
    }

    deinit {
        _ = Glibc.close(readFD)
        _ = Glibc.close(writeFD)
    }

    /// Wakes the waiter (or makes its next wait return at once).
    public func signal() {
        var byte: UInt8 = 1
        // EAGAIN means the pipe already holds a signal: nothing is lost.
        _ = Glibc.write(writeFD, &byte, 1)
    }

    /// Empties the pipe, so the next wait sleeps again.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ Glibc.read(readFD, $0.baseAddress, $0.count) }) > 0 {}
    }
}

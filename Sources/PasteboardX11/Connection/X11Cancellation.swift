#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Cancels a blocking X11 wait from another thread: the bridge runs each X connection on a
/// thread of its own and cancels it when its task ends.
///
/// Why a descriptor besides the flag: a waiting thread sleeps in poll on the X socket until the
/// server or its wakeup has something, however long that takes (an idle bridge makes no system
/// call); only a descriptor can end that sleep. `cancel()` makes the token's descriptor readable
/// for good, so every wait polling it returns at once. Without one (no descriptor could be
/// made), waits poll in slices of `X11Socket.pollSlice` and check the flag between them.
public final class X11Cancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    /// The pipe a wait polls (-1 when none could be made), and the end `cancel` writes to.
    let readFD: Int32
    private let writeFD: Int32

    public init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
        } else {
            fds = [-1, -1]
        }
        (readFD, writeFD) = (fds[0], fds[1])
    }

    deinit {
        if readFD >= 0 { _ = Glibc.close(readFD) }
        if writeFD >= 0 { _ = Glibc.close(writeFD) }
    }

    public func cancel() {
        flag.store(true, ordering: .releasing)
        var byte: UInt8 = 1
        // Never drained: the descriptor stays readable, and a full pipe already wakes.
        if writeFD >= 0 { _ = Glibc.write(writeFD, &byte, 1) }
    }

    public var isCancelled: Bool { flag.load(ordering: .acquiring) }
}

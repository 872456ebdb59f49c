#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
import Synchronization

/// The pipe that keeps the desktop bridge from outliving the daemon: the bridge gets the read
/// end (as descriptor `childDescriptor`) and exits at its end-of-file; the write end stays in
/// the daemon only (close-on-exec, so no other child inherits it), and the kernel closes it when
/// the daemon ends, however it ends. PR_SET_PDEATHSIG cannot do this: it follows the thread that
/// spawned the child (a pool thread that may exit while the daemon runs) and is armed only after
/// exec, so a daemon killed in between leaves an orphan.
final class BridgeLifeline: Sendable {
    /// The descriptor number the bridge finds the read end at.
    static let childDescriptor: Int32 = 3

    private struct Ends {
        var read: Int32
        var write: Int32
    }

    private let ends: Mutex<Ends>

    /// A new pipe, both ends close-on-exec; nil when none can be made (descriptors exhausted).
    init?() {
        var fds: [Int32] = [-1, -1]
        guard pasteboard_pipe(&fds, O_CLOEXEC) == 0 else { return nil }
        ends = Mutex(Ends(read: fds[0], write: fds[1]))
    }

    /// The read end, for the spawn to hand to the child.
    var childEnd: Int32 { ends.withLock { $0.read } }

    /// The child has its copy of the read end (or was not started): the daemon's is closed, so
    /// only the child's end-of-file depends on the write end.
    func childStarted() {
        ends.withLock { ends in
            if ends.read >= 0 { close(ends.read) }
            ends.read = -1
        }
    }

    /// The child ended: the write end is closed too.
    func end() {
        ends.withLock { ends in
            for fd in [ends.read, ends.write] where fd >= 0 { close(fd) }
            ends = Ends(read: -1, write: -1)
        }
    }

    deinit { end() }
}

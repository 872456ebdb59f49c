#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A child's end of the pipe pasteboardd keeps the write end of (the desktop bridge's, a
/// daemon-kept link's): its end-of-file means the daemon is gone (however it ended, SIGKILL
/// included), and the child must not outlive it, holding the desktop selection, the bridge lock
/// or a link for nobody.
public enum ParentLifeline {
    /// Whether `fd` is open and a pipe.
    public static func isPipe(_ fd: Int32) -> Bool {
        var info = stat()
        return fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO
    }

    /// Watches `fd` on a thread of its own and ends the process (after `farewell`) at its
    /// end-of-file. Nothing is cleaned up first: the X server and the compositor drop the
    /// selections of a client that disconnects, the kernel releases the lock, and there is no
    /// daemon left to tell.
    public static func exitAtEnd(of fd: Int32, farewell: @escaping @Sendable () -> Void) {
        BlockingWork.start {
            var byte: UInt8 = 0
            while true {
                let count = read(fd, &byte, 1)
                if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { break }
                if count < 0 && errno == EAGAIN {
                    var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    _ = poll(&waiting, 1, -1)
                }
            }
            farewell()
            _exit(0)
        }
    }
}

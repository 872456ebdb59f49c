#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
import PasteboardSystem
internal import PasteboardProtocol

/// A handed-off stored file copied into an output descriptor inside the kernel (copy_file_range
/// into a file, sendfile into a pipe or socket),
/// never through this process's memory: `pb paste > file` or `| cmd` of a large stored copy
/// then costs what `cat` costs, or less.
package enum KernelCopy {
    /// The output was closed by its reader (`pb paste | head`): not a failure to report, as a
    /// write that meets EPIPE is not (see `Output.write`).
    package struct OutputClosed: Error {}

    /// Bytes per kernel copy call: between calls progress is reported and the interrupt checked.
    static let step = 16 << 20

    /// Copies `source` from its current offset to its end into `target`; returns the bytes
    /// copied, or nil (having copied nothing) when `source` is no regular file or the kernel
    /// cannot copy into `target` (the caller then reads and writes). A failure after the first
    /// bytes throws. When `interrupt` becomes readable the copy stops with `CancellationError`.
    static func copy(_ source: Int32, to target: Int32, total: Int?, interrupt: Int32?,
                     progress: (LoadProgress) -> Void) throws -> Int? {
        var info = stat()
        guard fstat(source, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        var throttle = ProgressThrottle(total: total)
        var completed = 0
        while true {
            if let interrupt, Self.isReadable(interrupt) { throw CancellationError() }
            let sent = pasteboard_send_file(target, source, Self.step)
            if sent < 0 {
                let code = errno
                if completed == 0, [EINVAL, ENOSYS, EOPNOTSUPP, EXDEV].contains(code) { return nil }
                if code == EPIPE { throw OutputClosed() }
                throw PasteboardError.io("cannot write the handed-off data: \(SystemError.describe(code))")
            }
            if sent == 0 { return completed }
            completed += sent
            if completed != total, throttle.shouldReport(completed) {
                progress(LoadProgress(completed: completed, total: total))
            }
        }
    }

    private static func isReadable(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem

/// The system calls the spool makes that a test needs to replace: a full disk (ENOSPC) cannot
/// be made on demand in a temporary directory, nor a filesystem without O_TMPFILE, nor a disk
/// with little free space. `live` is the real thing; everything else the spool does is real.
package struct SpoolSystem: Sendable {
    /// One step of making a spool durable, in the order `SpoolSink.finish` takes them.
    package enum Step: Sendable, Equatable {
        /// `fdatasync` of the spool file.
        case dataSync
        /// The spool file got its name in `data/`.
        case link
        /// `fsync` of `data/`, so the name lasts.
        case directorySync
    }

    /// Opens an unnamed file in the directory (O_TMPFILE): the descriptor, or -1 with errno.
    package var openTemporary: @Sendable (_ directory: Int32) -> Int32
    /// write(2): the bytes written, or -1 with errno.
    package var write: @Sendable (_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int
    /// The bytes free for this user on the directory's filesystem, or nil when unknown.
    package var freeBytes: @Sendable (_ directory: Int32) -> Int?
    /// Told each step of a durable finish as it is done, so a test can check their order.
    package var observe: @Sendable (Step) -> Void

    package init(openTemporary: @escaping @Sendable (_ directory: Int32) -> Int32,
                 write: @escaping @Sendable (_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int,
                 freeBytes: @escaping @Sendable (_ directory: Int32) -> Int?,
                 observe: @escaping @Sendable (Step) -> Void) {
        self.openTemporary = openTemporary
        self.write = write
        self.freeBytes = freeBytes
        self.observe = observe
    }

    /// The real system calls.
    package static let live = SpoolSystem(
        openTemporary: { pasteboard_open_tmpfile($0) },
        write: { fd, bytes in Glibc.write(fd, bytes.baseAddress, bytes.count) },
        freeBytes: { directory in
            var free: Int64 = 0
            guard pasteboard_free_bytes(directory, &free) == 0, free >= 0 else { return nil }
            return Int(exactly: free)
        },
        observe: { _ in }
    )
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
import PasteboardProtocol
import PasteboardSystem

/// The connected socket pair a handed-off transfer runs through: the source sends into one
/// end, the destination receives from the other. The daemon only creates it and passes both
/// ends on; its own copies are closed once passed, so end of stream is the source's close.
///
/// A socket pair rather than a pipe: on Linux it carries bulk data faster (the bench measures
/// both against the same socketpair copy), and a file still goes in by sendfile.
final class HandoffLink {
    /// The source's end (send only).
    private(set) var sourceEnd: Int32
    /// The destination's end (receive only).
    private(set) var destinationEnd: Int32
    /// The socket buffer asked for on each end (the kernel doubles it, within wmem_max/rmem_max).
    static let buffer: Int32 = 1 << 20

    init() throws(ProtocolError) {
        var fds: [Int32] = [-1, -1]
        guard pasteboard_make_transfer_pair(&fds, Self.buffer) == 0 else {
            throw ProtocolError(.sourceUnavailable, "cannot create a socket pair for the transfer: \(SystemError.current)")
        }
        sourceEnd = fds[0]
        destinationEnd = fds[1]
    }

    /// Closes the daemon's copy of both ends.
    func close() {
        if sourceEnd >= 0 { _ = Glibc.close(sourceEnd) }
        if destinationEnd >= 0 { _ = Glibc.close(destinationEnd) }
        sourceEnd = -1
        destinationEnd = -1
    }

    deinit { close() }
}

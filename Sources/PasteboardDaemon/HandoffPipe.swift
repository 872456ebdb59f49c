#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
import PasteboardProtocol

/// The pipe a handed-off transfer runs through: the source writes into one end, the
/// destination reads the other. The daemon only creates it and passes both ends on; its own
/// copies are closed as soon as they are passed, so end of stream is the source's close.
final class HandoffPipe {
    private(set) var readEnd: Int32
    private(set) var writeEnd: Int32
    /// The pipe's buffer the daemon asks for (the system may cap it at pipe-max-size).
    static let capacity: Int32 = 1 << 20

    init() throws(ProtocolError) {
        var fds: [Int32] = [-1, -1]
        guard pasteboard_make_pipe(&fds, Self.capacity) == 0 else {
            throw ProtocolError(.sourceUnavailable, "cannot create a pipe for the transfer: \(String(cString: strerror(errno)))")
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    /// Closes the daemon's copy of both ends.
    func close() {
        if readEnd >= 0 { _ = Glibc.close(readEnd) }
        if writeEnd >= 0 { _ = Glibc.close(writeEnd) }
        readEnd = -1
        writeEnd = -1
    }

    deinit { close() }
}

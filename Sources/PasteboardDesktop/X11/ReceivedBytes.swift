import Pasteboard
import PasteboardX11

/// A chunk the bridge received from the daemon, handed to the X11 selection owner as it is:
/// an identity export's bytes go from the buffer they were read into straight to the X socket,
/// with no copy in the bridge (gathering them into whole 1 MiB chunks first was 9.5 to 13.7 %
/// of the bridge's cycles in a 256 MiB export).
///
/// Each chunk keeps its receive buffer (up to 1 MiB) alive until the requestor has read it;
/// the chunk writer holds at most two chunks' worth and lets each go as it is taken, so a
/// transfer's peak stays near 27 MiB (it reached 85-96 MiB while taken pieces stayed listed).
struct ReceivedBytes: ByteStorage {
    let chunk: ByteChunk

    var count: Int { chunk.count }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try chunk.withUnsafeBytes(body)
    }
}

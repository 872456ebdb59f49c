import Pasteboard
import PasteboardX11

/// A chunk the bridge received from the daemon, handed to the X11 selection owner as it is:
/// an identity export's bytes go from the buffer they were read into straight to the X socket,
/// with no copy in the bridge (gathering them into whole 1 MiB chunks first was 9.5 % of the
/// bridge's cycles in a 256 MiB export).
struct ReceivedBytes: ByteStorage {
    let chunk: ByteChunk

    var count: Int { chunk.count }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try chunk.withUnsafeBytes(body)
    }
}

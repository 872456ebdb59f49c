import NIOCore
import PasteboardProtocol
import Synchronization

/// The bytes of one eager representation as they arrive: held in memory while they are few
/// (up to `SpoolPolicy.memoryLimit`), then, when the write has a place to store them, written
/// to a spool file instead, so the daemon holds at most the sender's credit window of them
/// whatever the representation's size.
///
/// Bytes held in memory are consumed at once (their credit goes back with the frame); bytes
/// going to a spool are consumed only when written to disk (`grant`), so a sender outrunning
/// the disk waits for credit instead of filling the daemon's memory.
final class IncomingBytes {
    private let place: SpoolPlace?
    private let expected: Int?
    private let grant: @Sendable (Int) async -> Void
    private var chunks: [ByteBuffer] = []
    private var sink: SpoolSink?
    /// Bytes taken so far.
    private(set) var count = 0

    /// Bytes of a representation bound for `place` (nil: memory only), `expected` long when
    /// the sender said so; `grant` is told the bytes written to disk.
    init(place: SpoolPlace?, expected: Int?, grant: @escaping @Sendable (Int) async -> Void) {
        self.place = place
        self.expected = expected
        self.grant = grant
    }

    /// Takes `payload`; returns the bytes consumed now (held in memory), to be credited at once.
    /// Throws `storage-failed` when the spool failed (a full disk, a file-size limit, too
    /// little free space left) or could not be started.
    func append(_ payload: ByteBuffer) throws(ProtocolError) -> Int {
        let bytes = payload.readableBytes
        count += bytes
        if let sink {
            try sink.append(payload)
            return 0
        }
        guard let place, count > SpoolPolicy.memoryLimit else {
            if bytes > 0 { chunks.append(payload) }
            return bytes
        }
        // Past the memory limit: the bytes held so far go to the spool first. They were already
        // credited, so the spool's grant skips them.
        let alreadyCredited = count - bytes
        let skip = Mutex(alreadyCredited)
        let grant = grant
        let sink = try place.store.sink(durable: place.durable, expected: expected) { written in
            let fresh = skip.withLock { skip in
                let skipped = min(skip, written)
                skip -= skipped
                return written - skipped
            }
            if fresh > 0 { await grant(fresh) }
        }
        self.sink = sink
        for chunk in chunks { try sink.append(chunk) }
        chunks = []
        try sink.append(payload)
        return 0
    }

    /// The bytes as a representation's content: in memory, or the stored file once it is
    /// written, synced (when durable) and named. Throws `storage-failed` and leaves no file
    /// when storing fails.
    nonisolated(nonsending) func finish() async throws(ProtocolError) -> StoredRepresentation.Content {
        guard let sink else { return .data(chunks) }
        self.sink = nil
        return .stored(try await sink.finish())
    }

    /// Stops storing: a spool in progress is closed and removed, and its queued bytes are not
    /// written (nor credited) once this returns.
    nonisolated(nonsending) func abort() async {
        chunks = []
        guard let sink else { return }
        self.sink = nil
        await sink.abort()
    }
}

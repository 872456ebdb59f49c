import NIOCore
import PasteboardProtocol
import Synchronization

/// One spool being written: the bytes of one large eager representation going to a file in
/// `data/` as they arrive, so the daemon holds at most what is queued (the sender's credit
/// window) rather than the whole representation.
///
/// `append` never blocks the event loop: it queues the buffer for a task that writes it on
/// `SpoolIO` and then calls `grant` with the bytes written, so the sender's credit follows the
/// disk. `finish` makes the file durable and named; `abort`, or dropping the sink unfinished,
/// closes it, which leaves nothing on disk (an O_TMPFILE file has no name; a `.tmp` one is
/// removed).
final class SpoolSink: Sendable {
    private let writer: SpoolWriter
    private let io: SpoolIO
    private let reclaimer: SpoolReclaimer
    private let queue: SpoolQueue
    private let drain: Task<Void, Never>
    /// Set by `finish` or `abort`: no more bytes are taken.
    private let ended = Atomic(false)

    /// Opens the spool's file in `directory` (see `SpoolWriter.init`) and starts its draining
    /// task. Throws `storage-failed` when no file can be created.
    init(directory: SpoolDirectory, io: SpoolIO, system: SpoolSystem, reclaimer: SpoolReclaimer, durable: Bool, expected: Int?,
         grant: @escaping @Sendable (Int) async -> Void) throws(ProtocolError) {
        let writer = try SpoolWriter(directory: directory, system: system, durable: durable, expected: expected)
        let queue = SpoolQueue()
        self.writer = writer
        self.io = io
        self.reclaimer = reclaimer
        self.queue = queue
        drain = Task {
            // Everything queued while the last batch was written goes in one hop to `SpoolIO`:
            // a pipe's 64 KiB frames would otherwise cost a thread hop each.
            while let batch = await queue.next() {
                guard !writer.isAbandoned, writer.failure == nil else { continue }
                let written: Int?
                do {
                    written = try await io.run {
                        var total = 0
                        for buffer in batch {
                            guard let count = writer.write(buffer) else { return nil }
                            total += count
                        }
                        return total
                    }
                } catch {
                    writer.abandon()
                    continue
                }
                if let written, written > 0 { await grant(written) }
            }
            if writer.isAbandoned {
                do { try await io.run { writer.discard() } } catch { writer.discard() }
            }
        }
    }

    deinit {
        if !ended.exchange(true, ordering: .acquiringAndReleasing) {
            writer.abandon()
            queue.finish()
        }
    }

    /// The spool's id, which its file will be named by.
    var id: String { writer.id }

    /// Queues `buffer` to be written; throws the failure met by an earlier write (a full disk,
    /// a file-size limit, too little free space left), so the caller stops at the next frame.
    func append(_ buffer: ByteBuffer) throws(ProtocolError) {
        if let failure = writer.failure { throw failure }
        guard !ended.load(ordering: .acquiring) else {
            throw ProtocolError(.internal, "bytes arrived for the spool \(writer.path) after it was finished")
        }
        queue.append(buffer)
    }

    /// Waits until every queued byte is written, then syncs the file (when durable), names it
    /// `<id>.bytes`, and syncs `data/` (when durable), in that order. Returns the stored file,
    /// not yet named by any archive; throws `storage-failed` (and leaves nothing) on failure.
    func finish() async throws(ProtocolError) -> SpoolFile {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else {
            throw ProtocolError(.internal, "the spool \(writer.path) was already finished")
        }
        queue.finish()
        await drain.value
        let writer = writer
        let result: Result<(size: Int, head: [UInt8]), ProtocolError>
        do {
            result = try await io.run {
                do throws(ProtocolError) { return .success(try writer.complete()) } catch { return .failure(error) }
            }
        } catch {
            writer.discard()
            throw error
        }
        let (size, head) = try result.get()
        return SpoolFile(id: writer.id, size: size, head: head, durable: writer.durable, directory: writer.directory, reclaimer: reclaimer)
    }

    /// Stops the spool and waits until its file is closed and removed: nothing of it is left
    /// on disk. Bytes still queued are not written.
    func abort() async {
        if !ended.exchange(true, ordering: .acquiringAndReleasing) {
            writer.abandon()
            queue.finish()
        }
        await drain.value
    }
}

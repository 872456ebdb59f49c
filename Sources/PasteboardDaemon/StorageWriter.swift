#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// The one writer of the state directory's pasteboards, committing writes in groups.
///
/// A small pasteboard (archive up to `journalRecordLimit`) is appended to the journal (see
/// `JournalFile`); every write that arrives while a sync is in progress joins the next batch,
/// which one `fdatasync` makes durable. Fifty clients copying at once thus cost a few syncs,
/// not fifty, and a single copy costs one sync where a file of its own would cost two (the
/// file and its directory). A larger pasteboard is written as its own file, as a checkpoint
/// does. When the journal passes `checkpointBytes`, the writer checkpoints: it writes the
/// journal's pasteboards to their own files, syncs them and the directory, then empties the
/// journal. It also checkpoints after a pasteboard is written empty (a clear) and when asked
/// (`forgetEarlierContent`), so cleared content does not stay on disk in the journal. Reading
/// the directory back (`DurableStorage.loadAll`) takes, for each pasteboard,
/// the newer of its file and its last journal record.
///
/// Work runs on `NIOThreadPool.singleton`, one batch at a time, so the files and the journal
/// change in the order writes were acknowledged.
final class StorageWriter: Sendable {
    /// The largest archive that goes into the journal; larger ones get their own file at once.
    static let journalRecordLimit = 64 * 1024
    /// The journal's size past which the writer checkpoints.
    static let checkpointBytes = 4 * 1024 * 1024

    /// The state directory.
    let directory: String
    private let logger: Logger

    private struct Job {
        /// What to store; nil for a checkpoint alone.
        var pasteboard: NamedPasteboard?
        var done: CheckedContinuation<Result<Void, ArchiveFile.Failure>, Never>
    }

    /// Writes waiting for the next batch, and whether a batch is being written.
    private struct Queue {
        var pending: [Job] = []
        var isWriting = false
    }

    /// The journal as the writer keeps it: touched only by the batch being written (or by
    /// `recovered` before any write), so the lock is never contended.
    private struct Journal {
        /// Open for writing, or -1 until first needed.
        var fd: Int32 = -1
        /// Where the next record goes: the magic and the whole records.
        var end = JournalFile.headerLength
        /// The pasteboards whose newest content is in the journal (not yet in their own files).
        var unwritten: [String: NamedPasteboard] = [:]
        /// The size the journal must reach before a checkpoint is tried (again).
        var checkpointAt = StorageWriter.checkpointBytes
    }

    private let queue = Mutex(Queue())
    private let journal = Mutex(Journal())

    init(directory: String, logger: Logger = Logger(label: "pasteboardd")) {
        self.directory = directory
        self.logger = logger
    }

    deinit {
        journal.withLock { if $0.fd >= 0 { close($0.fd) } }
    }

    private var journalPath: String { directory + "/" + JournalFile.name }

    /// Stores `pasteboard` durably: returns once it is on disk, or throws saying why it is not
    /// (the previous content then stays as it was on disk).
    func save(_ pasteboard: NamedPasteboard) async throws(ArchiveFile.Failure) {
        try await enqueue(pasteboard).get()
    }

    /// Checkpoints (see `checkpoint`), so that no content written before stays in the journal;
    /// throws when that failed (the journal then still holds it).
    func forgetEarlierContent() async throws(ArchiveFile.Failure) {
        try await enqueue(nil).get()
    }

    /// Adds a job to the next batch, starting a writer when none runs, and waits for its outcome.
    private func enqueue(_ pasteboard: NamedPasteboard?) async -> Result<Void, ArchiveFile.Failure> {
        await withCheckedContinuation { (done: CheckedContinuation<Result<Void, ArchiveFile.Failure>, Never>) in
            let starts = queue.withLock { queue in
                queue.pending.append(Job(pasteboard: pasteboard, done: done))
                guard !queue.isWriting else { return false }
                queue.isWriting = true
                return true
            }
            if starts { NIOThreadPool.singleton.submit { state in self.writeBatches(active: state == .active) } }
        }
    }

    /// Writes batches until no write waits (on a thread of the pool).
    private func writeBatches(active: Bool) {
        while true {
            let batch: [Job] = queue.withLock { queue in
                let batch = queue.pending
                queue.pending = []
                if batch.isEmpty { queue.isWriting = false }
                return batch
            }
            if batch.isEmpty { return }
            guard active else {
                for job in batch { job.done.resume(returning: .failure(ArchiveFile.Failure(description: "pasteboardd is shutting down"))) }
                continue
            }
            journal.withLock { journal in write(batch, into: &journal) }
        }
    }

    /// Writes one batch: the small pasteboards into the journal with one sync, the others into
    /// files of their own; then checkpoints when the journal has grown past its limit, a
    /// pasteboard was written empty, or a job asked for it.
    private func write(_ batch: [Job], into journal: inout Journal) {
        var records = ByteBuffer()
        var journaled: [Job] = []
        var forgetting: [Job] = []
        for job in batch {
            guard let pasteboard = job.pasteboard else {
                forgetting.append(job)
                continue
            }
            let archive = PasteboardArchive.encoded(pasteboard)
            let size = archive.reduce(0) { $0 + $1.readableBytes }
            if size <= Self.journalRecordLimit {
                JournalFile.appendRecord(of: archive, to: &records)
                journaled.append(job)
                continue
            }
            let name = pasteboard.name
            do throws(ArchiveFile.Failure) {
                try ArchiveFile.write(archive, to: PasteboardArchive.path(of: name, in: directory), in: directory)
                journal.unwritten[name] = nil  // its file is now newer than any record of it
                job.done.resume(returning: .success(()))
            } catch {
                job.done.resume(returning: .failure(error))
            }
        }
        // A clear is answered once the checkpoint it causes is done, so that what it cleared
        // has left the disk by then (were the checkpoint to fail, the clear itself still stands).
        var answered: [Job] = forgetting
        if !journaled.isEmpty {
            let result = append(records, to: &journal)
            for job in journaled {
                guard case .success = result, let pasteboard = job.pasteboard else {
                    job.done.resume(returning: result)
                    continue
                }
                journal.unwritten[pasteboard.name] = pasteboard
                if pasteboard.items.isEmpty { answered.append(job) } else { job.done.resume(returning: result) }
            }
        }
        if journal.end > journal.checkpointAt || !answered.isEmpty {
            let result = checkpoint(&journal)
            for job in answered { job.done.resume(returning: job.pasteboard == nil ? result : .success(())) }
        }
    }

    /// Appends `records` at the journal's end and syncs it; on failure cuts the journal back to
    /// where it ended, so no partial record stays.
    private func append(_ records: ByteBuffer, to journal: inout Journal) -> Result<Void, ArchiveFile.Failure> {
        if journal.fd < 0 {
            switch openJournal() {
            case .success(let (fd, end)):
                journal.fd = fd
                journal.end = end
            case .failure(let failure):
                return .failure(failure)
            }
        }
        let fd = journal.fd
        var failedErrno: Int32?
        if lseek(fd, off_t(journal.end), SEEK_SET) < 0 { failedErrno = errno }
        if failedErrno == nil { failedErrno = ArchiveFile.writeAll(fd, [records]) }
        if failedErrno == nil, fdatasync(fd) != 0 { failedErrno = errno }
        if let failedErrno {
            _ = ftruncate(fd, off_t(journal.end))
            return .failure(ArchiveFile.Failure(description: "cannot write \(journalPath): \(String(cString: strerror(failedErrno)))"))
        }
        journal.end += records.readableBytes
        return .success(())
    }

    /// Opens the journal, creating it when missing; returns it with where its valid part ends
    /// (an incomplete record at its end is cut off, so new records follow whole ones).
    /// `validLength`, when the caller has just read the journal, spares reading it again.
    private func openJournal(validLength: Int? = nil) -> Result<(Int32, Int), ArchiveFile.Failure> {
        let path = journalPath
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return .failure(ArchiveFile.failure("open", path)) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let failure = ArchiveFile.failure("stat", path)
            close(fd)
            return .failure(failure)
        }
        let size = Int(info.st_size)
        var end = JournalFile.headerLength
        if size == 0 {
            var magic = ByteBuffer()
            magic.writeBytes(JournalFile.magic)
            if let failedErrno = ArchiveFile.writeAll(fd, [magic]) ?? (fsync(fd) == 0 ? nil : errno) {
                close(fd)
                return .failure(ArchiveFile.Failure(description: "cannot write \(path): \(String(cString: strerror(failedErrno)))"))
            }
            ArchiveFile.syncDirectory(directory)
        } else {
            do throws(ArchiveFile.Failure) {
                if let validLength {
                    end = validLength
                } else {
                    guard let bytes = ArchiveFile.readAll(fd, count: size) else { throw ArchiveFile.Failure(description: "\(path) could not be read whole") }
                    let contents = try JournalFile.contents(of: bytes, source: path)
                    if let problem = contents.problem { logger.error("journal cut back to its whole records", metadata: ["reason": "\(problem)"]) }
                    end = contents.validLength
                }
                if end < size, ftruncate(fd, off_t(end)) != 0 { throw ArchiveFile.failure("cut back", path) }
            } catch {
                close(fd)
                return .failure(error)
            }
        }
        return .success((fd, end))
    }

    /// Writes every pasteboard whose newest content is only in the journal into its own file,
    /// syncs them and the directory, then empties the journal. On failure (a full disk, say)
    /// the journal stays as it is, still holding everything, and the next try waits until it
    /// has grown by another `checkpointBytes`.
    @discardableResult
    private func checkpoint(_ journal: inout Journal) -> Result<Void, ArchiveFile.Failure> {
        guard journal.fd >= 0 else { return .success(()) }  // nothing was journaled since the start
        do throws(ArchiveFile.Failure) {
            for pasteboard in journal.unwritten.values {
                try PasteboardArchive.write(pasteboard, to: directory, syncsDirectory: false)
            }
            ArchiveFile.syncDirectory(directory)
            guard ftruncate(journal.fd, off_t(JournalFile.headerLength)) == 0, fsync(journal.fd) == 0 else {
                throw ArchiveFile.failure("empty", journalPath)
            }
            journal.end = JournalFile.headerLength
            journal.unwritten = [:]
            journal.checkpointAt = Self.checkpointBytes
            return .success(())
        } catch {
            journal.checkpointAt = journal.end + Self.checkpointBytes
            logger.error("journal not checkpointed; it keeps every write until the next try", metadata: ["reason": "\(error.description)"])
            return .failure(error)
        }
    }

    /// Makes `pasteboards`, read back from the journal at start, the content of their own files,
    /// then empties the journal (see `checkpoint`); `validLength` is where the journal's whole
    /// records end. Called before any write.
    func checkpointRecovered(_ pasteboards: [NamedPasteboard], validLength: Int) {
        journal.withLock { journal in
            if journal.fd < 0 {
                guard case .success(let (fd, end)) = openJournal(validLength: validLength) else { return }
                journal.fd = fd
                journal.end = end
            }
            for pasteboard in pasteboards { journal.unwritten[pasteboard.name] = pasteboard }
            checkpoint(&journal)
        }
    }
}

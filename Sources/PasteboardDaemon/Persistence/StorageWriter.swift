#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
import NIOCore
import PasteboardSystem
import Synchronization

/// The one writer of the state directory: its pasteboards and the general pasteboard's
/// history, committing writes in groups.
///
/// A small pasteboard or history entry (archive up to `journalRecordLimit`) is appended to the
/// journal (see `JournalFile`), and so is a note of the history entries that left; every
/// write that arrives while a sync is in progress joins the next batch, which one `fdatasync`
/// makes durable. Fifty clients copying at once thus cost a few syncs, not fifty, and a
/// single copy (its pasteboard and its history entry together) costs one sync where files of
/// their own would cost four (each file and its directory). A larger pasteboard or entry is
/// written as its own file, as a checkpoint does.
///
/// When the journal passes `checkpointBytes`, the writer checkpoints: it writes the journal's
/// pasteboards and history entries to their own files, removes the files of entries that
/// left, syncs the files and their directories, then empties the journal. Each pasteboard is
/// checkpointed on its own: one whose file cannot be written (its place taken, say) stays in
/// the journal, which is then compacted to the newest records of those alone instead of
/// emptied, so one pasteboard never keeps the others' old and cleared content on disk. The
/// journal never grows past `journalSizeLimit`, history removals included: a write that would
/// pass it first tries a checkpoint, and only if there is still no room goes to a file of its
/// own, as a large one does (a removal then removes the files without a record). It also
/// checkpoints after a pasteboard is written empty (a clear, wherever it was written) and when
/// asked (`Work.checkpoints`), so cleared content does not stay on disk in the journal.
/// Reading the directory back (`DurableStorage.loadAll`) takes, for each pasteboard, the newer
/// of its file and its last journal record, and replays the journal's history records onto
/// `history/`.
///
/// Work runs on a thread of its own (`BlockingWork`), one batch at a time, so the files and the journal
/// change in the order writes were acknowledged.
final class StorageWriter: Sendable {
    /// The largest archive that goes into the journal; larger ones get their own file at once.
    static let journalRecordLimit = 64 * 1024
    /// The journal's size past which the writer checkpoints.
    static let checkpointBytes = 4 * 1024 * 1024
    /// The journal's bound by default (see `journalSizeLimit`).
    static let defaultJournalSizeLimit = 64 * 1024 * 1024

    /// The journal's bound, zeros written ahead included: a pasteboard or history entry whose
    /// record would pass it even after a checkpoint was tried is written to a file of its own
    /// instead (only pasteboards that cannot be checkpointed, or checkpoints failing on a
    /// failing disk, fill the journal).
    let journalSizeLimit: Int

    /// The state directory.
    let directory: String
    /// Where history entries' files go (see `HistoryStorage`), created when first needed.
    let historyDirectory: String
    private let logger: Logger

    /// What one caller asks the writer to make durable.
    struct Work: Sendable {
        /// A pasteboard's new content.
        var pasteboard: NamedPasteboard?
        /// The history's file changes: with a pasteboard, those its write causes. They are
        /// written only when the pasteboard is; a failure of theirs alone is logged, not thrown
        /// (the entries are then kept in memory only).
        var history = HistoryChanges()
        /// Whether to checkpoint after this work, so no earlier content stays in the journal;
        /// a failed checkpoint is then thrown.
        var checkpoints = false
    }

    private struct Job {
        var work: Work
        var done: CheckedContinuation<Result<Void, ArchiveFile.Failure>, Never>
        /// Whether the job is answered only after the batch's checkpoint (whose failure is
        /// still thrown only when the work asked for it).
        var waitsForCheckpoint = false
        /// Whether the job is answered with the checkpoint's outcome even when the work did not
        /// ask for one: a history removal whose entry only that checkpoint drops from the journal.
        var answersWithCheckpoint = false
    }

    /// Writes waiting for the next batch, and whether a batch is being written.
    private struct Queue {
        var pending: [Job] = []
        var isWriting = false
    }

    /// The journal as the writer keeps it: touched only by the batch being written (or by
    /// `checkpointRecovered` before any write), so the lock is never contended.
    private struct Journal {
        /// Open for writing, or -1 until first needed.
        var fd: Int32 = -1
        /// Where the next record goes: the magic and the whole records.
        var end = JournalFile.headerLength
        /// The file's size: from `end` on it holds written zeros (see `JournalFile.preallocation`).
        var size = JournalFile.headerLength
        /// The pasteboards whose newest content is in the journal (not yet in their own files).
        var unwritten: [String: NamedPasteboard] = [:]
        /// The history entries whose newest content is in the journal, by sequence: their archives.
        var unwrittenEntries: [Int: [ByteBuffer]] = [:]
        /// The history entries that left since the last checkpoint: their files must go.
        var removedEntries: Set<Int> = []
        /// The size the journal must pass before a checkpoint is tried (again); a write that
        /// does not fit in the journal tries one sooner.
        var checkpointAt = StorageWriter.checkpointBytes
    }

    /// What the journal holds once a job's records are appended.
    private struct Appended {
        var pasteboard: NamedPasteboard?
        var entries: [Int: [ByteBuffer]] = [:]
        var removed: [Int] = []
        /// History entries that left whose removal records did not fit in the journal: their
        /// files go without a record (see `settle`).
        var removedWithoutRecord: [Int] = []
        /// Whether the job's outcome is that of the append (else its pasteboard went to a file
        /// of its own, and only its history is in the append).
        var decides = true

        /// Whether any of the job's records is in the append.
        var isJournaled: Bool { pasteboard != nil || !entries.isEmpty || !removed.isEmpty }
    }

    /// A batch's records not yet appended, the jobs they answer, and the jobs answered after the
    /// checkpoint (a clear, so what it cleared has left the disk by then — were the checkpoint
    /// to fail, the clear itself still stands — and the jobs that ask for one).
    private struct Pending {
        var records = ByteBuffer()
        var appended: [(job: Job, appended: Appended)] = []
        var afterCheckpoint: [Job] = []
    }

    private let queue = Mutex(Queue())
    private let journal = Mutex(Journal())

    /// The stored files released since the last checkpoint: each checkpoint removes them once
    /// it has succeeded, when no record on disk names them any more (see `SpoolReclaimer`).
    private let reclaimer: SpoolReclaimer?

    init(directory: String, logger: Logger = Logger(label: "pasteboardd"), journalSizeLimit: Int = StorageWriter.defaultJournalSizeLimit,
         reclaimer: SpoolReclaimer? = nil) {
        self.reclaimer = reclaimer
        self.directory = directory
        self.journalSizeLimit = journalSizeLimit
        self.historyDirectory = HistoryStorage.directory(inStateDirectory: directory)
        self.logger = logger
    }

    deinit {
        journal.withLock { if $0.fd >= 0 { close($0.fd) } }
    }

    private var journalPath: String { directory + "/" + JournalFile.name }

    /// Makes `work` durable: returns once it is on disk, or throws saying why it is not (what
    /// it would have replaced then stays as it was on disk).
    func commit(_ work: Work) async throws(ArchiveFile.Failure) {
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<Void, ArchiveFile.Failure>, Never>) in
            let starts = queue.withLock { queue in
                queue.pending.append(Job(work: work, done: done))
                guard !queue.isWriting else { return false }
                queue.isWriting = true
                return true
            }
            // On a thread of its own (`BlockingWork`); on this one when no thread can be had.
            if starts, !BlockingWork.start({ self.writeBatches() }) { writeBatches() }
        }
        try result.get()
    }

    /// Writes batches until no write waits (on a thread of its own).
    private func writeBatches() {
        while true {
            let batch: [Job] = queue.withLock { queue in
                let batch = queue.pending
                queue.pending = []
                if batch.isEmpty { queue.isWriting = false }
                return batch
            }
            if batch.isEmpty { return }
            journal.withLock { journal in write(batch, into: &journal) }
        }
    }

    /// Writes one batch: the small pasteboards and history records into the journal with one
    /// sync, the others into files of their own; then checkpoints when the journal has grown
    /// past `checkpointAt`, a pasteboard was written empty, or a job asked for it.
    ///
    /// A job whose records do not fit in what is left of the journal within its bound first
    /// tries a checkpoint (the jobs before it are settled, see `settle`), which empties the
    /// journal or compacts it to what cannot be checkpointed: only then does a write go to a file
    /// of its own because the journal is full. So the journal does not stay full after a failed
    /// checkpoint until it grows by `checkpointBytes`, which it no longer can near its bound; no
    /// other such try is made in the batch until something was appended since (it would find
    /// the same journal).
    private func write(_ batch: [Job], into journal: inout Journal) {
        var pending = Pending()
        // What the journal can still take within its bound; what does not fit goes to its own file.
        var room = journalSizeLimit - journal.end
        // Where the journal ended after this batch's last checkpoint tried for room.
        var triedForRoomAt: Int?
        for var job in batch {
            let pasteboardArchive = job.work.pasteboard.map(PasteboardArchive.encoded)
            let entryArchives = job.work.history.write.map { (entry: $0, archive: HistoryArchive.encoded($0)) }
            let removals = JournalRecord.removals(of: job.work.history.remove)
            let removalBytes = removals.reduce(0) { $0 + 4 + Self.size(of: $1) }
            let journalBytes = ([pasteboardArchive].compactMap { $0 } + entryArchives.map(\.archive))
                .map(Self.size(of:)).filter { $0 <= Self.journalRecordLimit }.reduce(removalBytes) { $0 + 4 + $1 }
            if journalBytes > room, triedForRoomAt != journal.end + pending.records.readableBytes {
                settle(&pending, into: &journal, checkpoints: true)
                triedForRoomAt = journal.end
                room = journalSizeLimit - journal.end
            }
            var record = Appended()
            if let pasteboard = job.work.pasteboard, let archive = pasteboardArchive {
                let size = Self.size(of: archive)
                if size <= Self.journalRecordLimit, 4 + size <= room {
                    JournalFile.appendRecord(of: archive, to: &pending.records)
                    room -= 4 + size
                    record.pasteboard = pasteboard
                } else {
                    do throws(ArchiveFile.Failure) {
                        try ArchiveFile.write(archive, to: PasteboardArchive.path(of: pasteboard.name, in: directory), in: directory)
                        journal.unwritten[pasteboard.name] = nil  // its file is now newer than any record of it
                        record.decides = false
                        // A clear checkpoints wherever it was written, so the journal's older
                        // records of the pasteboard leave the disk too.
                        if pasteboard.items.isEmpty { job.waitsForCheckpoint = true }
                    } catch {
                        job.done.resume(returning: .failure(error))  // nor is its history written
                        continue
                    }
                }
            }
            for (entry, archive) in entryArchives {
                let size = Self.size(of: archive)
                if size <= Self.journalRecordLimit, 4 + size <= room {
                    JournalFile.appendRecord(of: archive, to: &pending.records)
                    room -= 4 + size
                    record.entries[entry.sequence] = archive
                    continue
                }
                do throws(ArchiveFile.Failure) {
                    try prepareHistoryDirectory()
                    try HistoryArchive.write(archive, sequence: entry.sequence, to: historyDirectory)
                    // An older record of the entry in the journal must go before it could be
                    // read back over the file: the job waits for a checkpoint.
                    if journal.unwrittenEntries.removeValue(forKey: entry.sequence) != nil { job.waitsForCheckpoint = true }
                } catch {
                    logger.error("history entry not stored; it is kept in memory only", metadata: [
                        "changeCount": "\(entry.changeCount)", "reason": "\(error.description)",
                    ])
                }
            }
            if !removals.isEmpty {
                // Removals count against the bound like any record; when they do not fit even
                // after the checkpoint tried above, the files go without a record (see `settle`).
                if removalBytes <= room {
                    for removal in removals { JournalFile.appendRecord(of: removal, to: &pending.records) }
                    room -= removalBytes
                    record.removed = job.work.history.remove
                } else {
                    record.removedWithoutRecord = job.work.history.remove
                }
            }
            if !record.isJournaled && record.removedWithoutRecord.isEmpty {
                // Nothing of this job is in the journal.
                if job.work.checkpoints || job.waitsForCheckpoint { pending.afterCheckpoint.append(job) } else { job.done.resume(returning: .success(())) }
                continue
            }
            pending.appended.append((job, record))
        }
        settle(&pending, into: &journal, checkpoints: false)
    }

    /// Appends `pending`'s records to the journal with one sync and answers their jobs, then
    /// checkpoints when asked (`checkpoints`, to make room), when the journal has grown past
    /// `checkpointAt`, or when a job waits for it; `pending` is left empty.
    ///
    /// The entries a job removes without a record (there was no room for one) have their files
    /// removed and the history directory synced, which makes that last; an entry the journal
    /// still holds a record of needs the checkpoint to drop it, so the job waits for it (and,
    /// with no pasteboard of its own, is answered with its outcome).
    private func settle(_ pending: inout Pending, into journal: inout Journal, checkpoints: Bool) {
        defer { pending = Pending() }
        var afterCheckpoint = pending.afterCheckpoint
        if !pending.appended.isEmpty {
            let result = pending.records.readableBytes == 0 ? .success(()) : append(pending.records, to: &journal)
            for (var job, record) in pending.appended {
                if record.isJournaled, case .failure(let failure) = result {
                    if record.decides {
                        job.done.resume(returning: result)
                    } else {
                        logger.error("history not stored; it is kept in memory only", metadata: ["reason": "\(failure.description)"])
                        job.done.resume(returning: .success(()))
                    }
                    continue
                }
                if let pasteboard = record.pasteboard { journal.unwritten[pasteboard.name] = pasteboard }
                for (sequence, archive) in record.entries { journal.unwrittenEntries[sequence] = archive }
                for sequence in record.removed {
                    // The journal's record makes the removal last; the file goes at once, so
                    // the entry's content leaves the disk now (a checkpoint removes it again,
                    // syncing the directory).
                    unlink(historyDirectory + "/" + HistoryArchive.fileName(of: sequence))
                    journal.unwrittenEntries[sequence] = nil
                    journal.removedEntries.insert(sequence)
                }
                if !record.removedWithoutRecord.isEmpty {
                    for sequence in record.removedWithoutRecord {
                        unlink(historyDirectory + "/" + HistoryArchive.fileName(of: sequence))
                        if journal.unwrittenEntries.removeValue(forKey: sequence) != nil {
                            job.waitsForCheckpoint = true
                            if job.work.pasteboard == nil { job.answersWithCheckpoint = true }
                        }
                        journal.removedEntries.insert(sequence)
                    }
                    ArchiveFile.syncDirectory(historyDirectory)
                }
                if job.work.checkpoints || job.waitsForCheckpoint || record.pasteboard?.items.isEmpty == true {
                    afterCheckpoint.append(job)
                } else {
                    job.done.resume(returning: .success(()))
                }
            }
        }
        if checkpoints || journal.end > journal.checkpointAt || !afterCheckpoint.isEmpty {
            let result = checkpoint(&journal)
            for job in afterCheckpoint {
                job.done.resume(returning: job.work.checkpoints || job.answersWithCheckpoint ? result : .success(()))
            }
        }
    }

    private static func size(of archive: [ByteBuffer]) -> Int {
        archive.reduce(0) { $0 + $1.readableBytes }
    }

    /// Creates `history/` (0700) when missing; throws when it cannot be used (it is not a
    /// directory of ours, or is a symbolic link).
    private func prepareHistoryDirectory() throws(ArchiveFile.Failure) {
        do {
            try OwnDirectory.prepare(historyDirectory, kind: .history, followsLink: false)
        } catch {
            throw ArchiveFile.Failure(description: error.description)
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
                journal.size = end
            case .failure(let failure):
                return .failure(failure)
            }
        }
        let fd = journal.fd
        let needed = journal.end + records.readableBytes
        guard needed <= journalSizeLimit else {
            return .failure(ArchiveFile.Failure(description: "the journal \(journalPath) is full (\(journal.end) bytes; its bound is \(journalSizeLimit))"))
        }
        if needed > journal.size { preallocate(to: max(needed, min(needed + JournalFile.preallocation, journalSizeLimit)), journal: &journal) }
        var failedErrno: Int32?
        if lseek(fd, off_t(journal.end), SEEK_SET) < 0 { failedErrno = errno }
        if failedErrno == nil { failedErrno = ArchiveFile.writeAll(fd, [records]) }
        if failedErrno == nil, fdatasync(fd) != 0 { failedErrno = errno }
        if let failedErrno {
            _ = ftruncate(fd, off_t(journal.end))
            journal.size = journal.end
            return .failure(ArchiveFile.Failure(description: "cannot write \(journalPath): \(SystemError.describe(failedErrno))"))
        }
        journal.end = needed
        journal.size = max(journal.size, needed)
        return .success(())
    }

    /// Extends the journal to `size` with written zeros (not `fallocate`, whose unwritten
    /// extents would still change on the first write); the append's sync makes them last. On
    /// failure (a full disk, a file size limit) the journal is cut back and the append grows it
    /// by just its records, as far as that goes.
    private func preallocate(to size: Int, journal: inout Journal) {
        let zeros = ByteBuffer(repeating: 0, count: size - journal.size)
        guard lseek(journal.fd, off_t(journal.size), SEEK_SET) >= 0, ArchiveFile.writeAll(journal.fd, [zeros]) == nil else {
            _ = ftruncate(journal.fd, off_t(journal.size))
            return
        }
        journal.size = size
    }

    /// Opens the journal, creating it when missing; returns it with where its valid part ends
    /// (an incomplete record at its end is cut off, so new records follow whole ones).
    /// `validLength`, when the caller has just read the journal, spares reading it again.
    private func openJournal(validLength: Int? = nil) -> Result<(Int32, Int), ArchiveFile.Failure> {
        let path = journalPath
        let fd: Int32
        switch OwnFile.open(path, O_RDWR | O_CREAT) {
        case .success(let opened): fd = opened
        case .failure(let failure): return .failure(failure)
        }
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
                return .failure(ArchiveFile.Failure(description: "cannot write \(path): \(SystemError.describe(failedErrno))"))
            }
            ArchiveFile.syncDirectory(directory)
        } else {
            do throws(ArchiveFile.Failure) {
                if let validLength {
                    end = validLength
                } else {
                    let scan = try JournalScanner(bytes: JournalFileBytes(fd: fd, count: size), source: path).scan { _, _ in }
                    if let problem = scan.tornTail ?? scan.damaged.last.map({ "\(path) has a damaged record at byte \($0.offset)" }) {
                        logger.error("journal cut back to its whole records", metadata: ["reason": "\(problem)"])
                    }
                    end = scan.validLength
                }
                if end < size, ftruncate(fd, off_t(end)) != 0 { throw ArchiveFile.failure("cut back", path) }
            } catch {
                close(fd)
                return .failure(error)
            }
        }
        return .success((fd, end))
    }

    /// Writes every pasteboard and history entry whose newest content is only in the journal
    /// into its own file, removes the files of the entries that left, syncs the files and their
    /// directories, then empties the journal. A pasteboard or entry whose file cannot be written
    /// is logged and stays in the journal: the journal is then compacted to the newest records
    /// of those alone (see `compact`), so the others' earlier and cleared content leaves the
    /// disk all the same. When even that fails (a full disk, say) the journal stays as it is,
    /// still holding everything, and the next try waits until it has grown by another
    /// `checkpointBytes` or a write no longer fits in it (see `write`), whichever comes first:
    /// near the bound it cannot grow that much. A history directory that cannot be used (not
    /// a directory, owned by another user) costs the history entries, which is logged;
    /// `atStart` says they were read from the journal at start, and so are dropped, not kept
    /// in memory.
    @discardableResult
    private func checkpoint(_ journal: inout Journal, atStart: Bool = false) -> Result<Void, ArchiveFile.Failure> {
        // Taken before the checkpoint starts: files released later may still be named by what
        // it writes, and wait for the next one.
        let released = reclaimer?.takeNamed() ?? []
        let result = writeCheckpoint(&journal, atStart: atStart)
        if case .success = result { reclaimer?.remove(released) } else { reclaimer?.putBack(released) }
        return result
    }

    private func writeCheckpoint(_ journal: inout Journal, atStart: Bool) -> Result<Void, ArchiveFile.Failure> {
        guard journal.fd >= 0 else { return .success(()) }  // nothing was journaled since the start
        var stuck: [String: NamedPasteboard] = [:]
        for pasteboard in journal.unwritten.values {
            do throws(ArchiveFile.Failure) {
                try PasteboardArchive.write(pasteboard, to: directory, syncsDirectory: false)
            } catch {
                stuck[pasteboard.name] = pasteboard
                logger.error("pasteboard not checkpointed; its newest content stays in the journal", metadata: [
                    "pasteboard": "\(pasteboard.name)", "reason": "\(error.description)",
                ])
            }
        }
        var stuckEntries: [Int: [ByteBuffer]] = [:]
        if !journal.unwrittenEntries.isEmpty || !journal.removedEntries.isEmpty {
            if case .failure(let failure) = Result(catching: prepareHistoryDirectory) {
                let entries = journal.unwrittenEntries.keys.sorted()
                if atStart {
                    logger.error("dropped the history entries the journal held: the history directory cannot be used", metadata: [
                        "entries": "\(entries)", "reason": "\(failure.description)",
                    ])
                } else {
                    logger.error("history entries not stored; the history is kept in memory only", metadata: [
                        "entries": "\(entries)", "reason": "\(failure.description)",
                    ])
                }
            } else {
                for (sequence, archive) in journal.unwrittenEntries {
                    do throws(ArchiveFile.Failure) {
                        try HistoryArchive.write(archive, sequence: sequence, to: historyDirectory, syncsDirectory: false)
                    } catch {
                        stuckEntries[sequence] = archive
                        logger.error("history entry not checkpointed; it stays in the journal", metadata: [
                            "entry": "\(sequence)", "reason": "\(error.description)",
                        ])
                    }
                }
                for sequence in journal.removedEntries { unlink(historyDirectory + "/" + HistoryArchive.fileName(of: sequence)) }
                ArchiveFile.syncDirectory(historyDirectory)
            }
        }
        ArchiveFile.syncDirectory(directory)
        let result = stuck.isEmpty && stuckEntries.isEmpty ? empty(&journal) : compact(&journal, keeping: stuck, entries: stuckEntries)
        journal.checkpointAt = journal.end + Self.checkpointBytes
        switch result {
        case .success:
            journal.unwritten = stuck
            journal.unwrittenEntries = stuckEntries
            journal.removedEntries = []
        case .failure(let error):
            logger.error("journal not checkpointed; it keeps every write until the next try", metadata: ["reason": "\(error.description)"])
        }
        return result
    }

    /// Empties the journal (its magic stays), synced.
    private func empty(_ journal: inout Journal) -> Result<Void, ArchiveFile.Failure> {
        guard ftruncate(journal.fd, off_t(JournalFile.headerLength)) == 0, fsync(journal.fd) == 0 else {
            return .failure(ArchiveFile.failure("empty", journalPath))
        }
        journal.end = JournalFile.headerLength
        journal.size = JournalFile.headerLength
        return .success(())
    }

    /// Replaces the journal by one holding only the newest records of `pasteboards` and
    /// `entries`, the ones a checkpoint could not write to their own files: written under a
    /// temporary name (`JournalFile.temporaryName`), synced, renamed over the journal, the
    /// directory synced. Its size is then bounded by those records, and nothing else the old
    /// journal held (earlier content, cleared content) stays on disk. On failure the journal
    /// stays as it was.
    private func compact(_ journal: inout Journal, keeping pasteboards: [String: NamedPasteboard], entries: [Int: [ByteBuffer]]) -> Result<Void, ArchiveFile.Failure> {
        let temporary = directory + "/" + JournalFile.temporaryName
        var records = ByteBuffer(bytes: JournalFile.magic)
        for name in pasteboards.keys.sorted() { JournalFile.appendRecord(of: PasteboardArchive.encoded(pasteboards[name]!), to: &records) }
        for sequence in entries.keys.sorted() { JournalFile.appendRecord(of: entries[sequence]!, to: &records) }
        unlink(temporary)
        let fd: Int32
        switch OwnFile.open(temporary, O_RDWR | O_CREAT | O_EXCL) {
        case .success(let opened): fd = opened
        case .failure(let failure): return .failure(failure)
        }
        if let failedErrno = ArchiveFile.writeAll(fd, [records]) ?? (fsync(fd) == 0 ? nil : errno) {
            close(fd)
            unlink(temporary)
            return .failure(ArchiveFile.Failure(description: "cannot write \(temporary): \(SystemError.describe(failedErrno))"))
        }
        guard rename(temporary, journalPath) == 0 else {
            let failure = ArchiveFile.failure("rename into place", journalPath)
            close(fd)
            unlink(temporary)
            return .failure(failure)
        }
        ArchiveFile.syncDirectory(directory)
        close(journal.fd)
        journal.fd = fd
        journal.end = records.readableBytes
        journal.size = records.readableBytes
        logger.notice("journal compacted to the pasteboards and history entries that could not be checkpointed", metadata: [
            "pasteboards": "\(pasteboards.keys.sorted())", "entries": "\(entries.keys.sorted())", "bytes": "\(records.readableBytes)",
        ])
        return .success(())
    }

    /// Makes what the journal held at start (read back by `DurableStorage.loadAll`) the content
    /// of its own files, then empties the journal (see `checkpoint`); `validLength` is where
    /// the journal's whole records end. Called before any write.
    func checkpointRecovered(_ recovered: JournalFile.Replay, validLength: Int) {
        journal.withLock { journal in
            if journal.fd < 0 {
                guard case .success(let (fd, end)) = openJournal(validLength: validLength) else { return }
                journal.fd = fd
                journal.end = end
                journal.size = end
            }
            for pasteboard in recovered.pasteboards { journal.unwritten[pasteboard.name] = pasteboard }
            for (sequence, archive) in recovered.entries { journal.unwrittenEntries[sequence] = [archive] }
            journal.removedEntries = recovered.removedEntries
            checkpoint(&journal, atStart: true)
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
import NIOCore
import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes

/// Where the daemon keeps its named pasteboards on disk (`$XDG_STATE_HOME/pasteboard/`): one
/// archive per pasteboard, the general pasteboard's history in `history/`, and a journal of
/// the newest small writes of both (see `StorageWriter`), written before a copy is
/// acknowledged and read back at start.
package struct DurableStorage: Sendable {
    /// The state directory (mode 0700).
    package let directory: String
    /// Commits the writes.
    private let writer: StorageWriter
    /// Large eager representations, stored in `data/` one file each (see `SpoolStore`).
    let spools: SpoolStore

    /// Uses `directory`, creating it (0700) when missing; refuses one that is not a directory,
    /// is owned by another user or is writable by group or others (naming it the state directory).
    /// `spoolSystem` replaces the spool's system calls in tests (a disk with a given free space).
    package init(directory: String, spoolSystem: SpoolSystem = .live) throws(DaemonError) {
        try OwnDirectory.prepare(directory, kind: .state)
        self.directory = directory
        let spools = SpoolStore(stateDirectory: directory, io: .shared, system: spoolSystem)
        let writer = StorageWriter(directory: directory, reclaimer: spools.reclaimer)
        self.writer = writer
        self.spools = spools
        // Every checkpoint removes the stored files released before it; when released files
        // add up to `SpoolPolicy.reclaimBytes` before the journal's own next checkpoint, one is
        // asked for (a failed one leaves them to the next, or to the sweep at start).
        spools.reclaimer.schedule { [weak writer] in
            guard let writer else { return }
            Task { try? await writer.commit(StorageWriter.Work(history: HistoryChanges(), checkpoints: true)) }
        }
    }

    /// Waits until every stored file released so far is removed (for tests and shutdown).
    func settleStoredFiles() async {
        await spools.reclaimer.settle()
    }

    /// `$XDG_STATE_HOME/pasteboard`, else `$HOME/.local/state/pasteboard`; nil without either.
    package static func defaultDirectory(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/pasteboard" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/pasteboard" }
        return nil
    }

    /// Stores `pasteboard` durably (off the cooperative pool, in a group with the writes that
    /// arrive meanwhile), and with it `history`, the history's file changes its write causes.
    /// Throws `storage-failed` saying why; what is on disk then stays as it was. A failure to
    /// store the history alone is logged, not thrown.
    func save(_ pasteboard: NamedPasteboard, history: HistoryChanges = HistoryChanges()) async throws(ProtocolError) {
        do {
            try await writer.commit(StorageWriter.Work(pasteboard: pasteboard, history: history))
        } catch {
            throw ProtocolError(.storageFailed, "pasteboard '\(pasteboard.name)' was not changed: \(error.description)")
        }
    }

    /// Stores the history's file changes durably (see `save`); throws saying why not. With
    /// `checkpoints`, no content written before stays in the journal either (see
    /// `StorageWriter`), as clearing the history needs.
    func saveHistory(_ changes: HistoryChanges, checkpoints: Bool = false) async throws(ArchiveFile.Failure) {
        try await writer.commit(StorageWriter.Work(history: changes, checkpoints: checkpoints))
    }

    /// Every pasteboard stored in the directory: each archive, unless the journal holds a newer
    /// content of it. Archives that fail their checks are logged and skipped (left on disk for
    /// inspection until the pasteboard is written again); leftover temporary files of an
    /// interrupted write are removed. What only the journal held (pasteboards, history entries
    /// and their removals) is then written to its own file and the journal emptied, so the
    /// history is read back from `history/` (`HistoryStorage.loadAll`) afterwards.
    func loadAll(registry: TypeRegistry, logger: Logger, spools: SpoolCatalog? = nil) -> [NamedPasteboard] {
        var restored: [String: NamedPasteboard] = [:]
        for pasteboard in loadArchives(registry: registry, logger: logger, spools: spools) { restored[pasteboard.name] = pasteboard }
        guard let journal = loadJournal(registry: registry, logger: logger, spools: spools) else { return Array(restored.values) }
        var replay = journal.replay
        for pasteboard in replay.pasteboards {
            if pasteboard.changeCount > restored[pasteboard.name]?.changeCount ?? -1 {
                restored[pasteboard.name] = pasteboard
            } else {
                replay.newest[pasteboard.name] = nil  // its file is newer
            }
        }
        writer.checkpointRecovered(replay, validLength: journal.validLength)
        return Array(restored.values)
    }

    /// What the journal holds and where its whole records end, or nil without a journal.
    ///
    /// The journal is read one record at a time (see `JournalScanner`), so memory stays bounded
    /// by the largest record and the newest content of each pasteboard, whatever the file's
    /// size. A damaged record is skipped and the records after it kept; what was lost is logged
    /// at level error and the journal is copied aside (`JournalFile.damagedName`) before the
    /// checkpoint empties it. A write cut short at the end was never acknowledged: a notice. A
    /// journal that is not one (or not a regular file of ours) is renamed aside and logged.
    private func loadJournal(registry: TypeRegistry, logger: Logger, spools: SpoolCatalog?) -> (replay: JournalFile.Replay, validLength: Int)? {
        let path = directory + "/" + JournalFile.name
        let fd: Int32
        switch OwnFile.open(path, O_RDONLY) {
        case .success(let opened):
            fd = opened
        case .failure(let failure):
            var info = stat()
            guard lstat(path, &info) == 0 else {
                if errno != ENOENT {
                    logger.error("cannot read the journal", metadata: ["file": "\(path)", "error": "\(SystemError.current)"])
                }
                return nil
            }
            setAside(path, reason: failure.description, logger: logger)
            return nil
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size >= 0 else {
            logger.error("cannot read the journal", metadata: ["file": "\(path)", "error": "\(SystemError.current)"])
            return nil
        }
        let scanner = JournalScanner(bytes: JournalFileBytes(fd: fd, count: Int(info.st_size)), source: path)
        var replay = JournalFile.Replay()
        var unreadable: [JournalDamage] = []
        let outcome: JournalScanner<JournalFileBytes>.Outcome
        do throws(ArchiveFile.Failure) {
            outcome = try scanner.scan { archive, number in
                do throws(ArchiveFile.Failure) {
                    replay.apply(try JournalRecord.decode(archive, registry: registry, source: "\(path) record \(number)", spools: spools))
                } catch {
                    unreadable.append(JournalDamage(number: number, offset: -1, length: archive.readableBytes, reason: error.description, content: JournalRecord.describeDamaged(archive)))
                }
            }
        } catch {
            setAside(path, reason: error.description, logger: logger)
            return nil
        }
        if let problem = outcome.tornTail {
            logger.notice("the journal ends in a write that was never acknowledged; it is ignored", metadata: ["reason": "\(problem)"])
        }
        let lost = outcome.damaged + unreadable
        if !lost.isEmpty {
            let copy = keepDamagedCopy(of: fd, size: Int(info.st_size), logger: logger)
            for damage in lost.sorted(by: { $0.number < $1.number }) {
                var metadata: Logger.Metadata = [
                    "record": "\(damage.number)", "bytes": "\(damage.length)", "reason": "\(damage.reason)",
                    "held": "\(damage.content ?? "unknown")",
                ]
                if damage.offset >= 0 { metadata["byte"] = "\(damage.offset)" }
                logger.error("lost a damaged journal record; the records after it are kept", metadata: metadata)
            }
            logger.error("the journal had damaged records", metadata: [
                "file": "\(path)", "lost": "\(lost.count)", "copy": "\(copy ?? "none")",
            ])
        }
        return (replay, outcome.validLength)
    }

    /// Renames the journal at `path`, which cannot be read as one, out of the way (never over
    /// an earlier copy), so a fresh journal takes new writes.
    private func setAside(_ path: String, reason: String, logger: Logger) {
        guard let target = JournalFile.freeDamagedPath(in: directory) else {
            logger.error("cannot set aside a damaged journal: every name for it is taken; it is removed", metadata: ["file": "\(path)", "reason": "\(reason)"])
            unlink(path)
            return
        }
        guard rename(path, target) == 0 else {
            logger.error("cannot set aside a damaged journal", metadata: ["file": "\(path)", "reason": "\(reason)", "error": "\(SystemError.current)"])
            return
        }
        logger.error("set aside a damaged journal", metadata: ["file": "\(target)", "reason": "\(reason)"])
    }

    /// Copies the journal (open as `fd`, `size` bytes) to a free damaged name, synced, for
    /// inspection; returns the copy's path, or nil when none could be made (logged).
    private func keepDamagedCopy(of fd: Int32, size: Int, logger: Logger) -> String? {
        guard let target = JournalFile.freeDamagedPath(in: directory) else {
            logger.error("no copy of the damaged journal kept: every name for it is taken")
            return nil
        }
        guard case .success(let copy) = OwnFile.open(target, O_WRONLY | O_CREAT | O_EXCL) else {
            logger.error("no copy of the damaged journal kept", metadata: ["file": "\(target)", "error": "\(SystemError.current)"])
            return nil
        }
        defer { close(copy) }
        let bytes = JournalFileBytes(fd: fd, count: size)
        var offset = 0
        while offset < size {
            let length = min(1 << 20, size - offset)
            guard let chunk = bytes.read(at: offset, length: length), ArchiveFile.writeAll(copy, [chunk]) == nil else {
                logger.error("no copy of the damaged journal kept", metadata: ["file": "\(target)", "error": "\(SystemError.current)"])
                unlink(target)
                return nil
            }
            offset += length
        }
        fsync(copy)
        ArchiveFile.syncDirectory(directory)
        return target
    }

    /// Every archive in the directory that passes its checks.
    private func loadArchives(registry: TypeRegistry, logger: Logger, spools: SpoolCatalog?) -> [NamedPasteboard] {
        guard let stream = opendir(directory) else {
            logger.warning("cannot read the state directory", metadata: ["directory": "\(directory)", "error": "\(SystemError.current)"])
            return []
        }
        defer { closedir(stream) }
        let names = DirectoryEntries.names(of: stream)
        var restored: [NamedPasteboard] = []
        for name in names.sorted() {
            let path = directory + "/" + name
            if name.hasSuffix(PasteboardArchive.fileExtension + ArchiveFile.temporarySuffix) || name == JournalFile.temporaryName {
                if unlink(path) == 0 {
                    logger.notice("removed the remains of an interrupted write", metadata: ["file": "\(path)"])
                } else {
                    logger.warning("cannot remove the remains of an interrupted write", metadata: ["file": "\(path)", "error": "\(SystemError.current)"])
                }
                continue
            }
            guard name.hasSuffix(PasteboardArchive.fileExtension) else { continue }
            do {
                restored.append(try PasteboardArchive.read(path, registry: registry, spools: spools))
            } catch {
                logger.error("skipped a damaged pasteboard archive", metadata: ["file": "\(path)", "reason": "\(error.description)"])
            }
        }
        return restored
    }
}

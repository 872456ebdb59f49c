#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
import PasteboardProtocol
import PasteboardTypes

/// Where the daemon keeps its named pasteboards on disk (`$XDG_STATE_HOME/pasteboard/`): one
/// archive per pasteboard, the general pasteboard's history in `history/`, and a journal of
/// the newest small writes of both (see `StorageWriter`), written before a copy is
/// acknowledged and read back at start.
public struct DurableStorage: Sendable {
    /// The state directory (mode 0700).
    public let directory: String
    /// Commits the writes.
    private let writer: StorageWriter

    /// Uses `directory`, creating it (0700) when missing; refuses one owned by another user or
    /// writable by group or others.
    public init(directory: String) throws(DaemonError) {
        try SocketDirectory.prepare(directory)
        self.directory = directory
        self.writer = StorageWriter(directory: directory)
    }

    /// `$XDG_STATE_HOME/pasteboard`, else `$HOME/.local/state/pasteboard`; nil without either.
    public static func defaultDirectory(environment: [String: String]) -> String? {
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
    func loadAll(registry: TypeRegistry, logger: Logger) -> [NamedPasteboard] {
        var restored: [String: NamedPasteboard] = [:]
        for pasteboard in loadArchives(registry: registry, logger: logger) { restored[pasteboard.name] = pasteboard }
        guard let journal = loadJournal(registry: registry, logger: logger) else { return Array(restored.values) }
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

    /// What the journal holds and where its whole records end, or nil without a journal. A
    /// journal that is not one is set aside as `journal.damaged` (and logged); records that
    /// cannot be read are logged and skipped.
    private func loadJournal(registry: TypeRegistry, logger: Logger) -> (replay: JournalFile.Replay, validLength: Int)? {
        let path = directory + "/" + JournalFile.name
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno != ENOENT {
                logger.error("cannot read the journal", metadata: ["file": "\(path)", "error": "\(String(cString: strerror(errno)))"])
            }
            return nil
        }
        defer { close(fd) }
        var info = stat()
        let contents: JournalFile.Contents
        do throws(ArchiveFile.Failure) {
            guard fstat(fd, &info) == 0, let bytes = ArchiveFile.readAll(fd, count: Int(info.st_size)) else {
                throw ArchiveFile.Failure(description: "\(path) could not be read whole")
            }
            contents = try JournalFile.contents(of: bytes, source: path)
        } catch {
            rename(path, path + ".damaged")
            logger.error("set aside a damaged journal", metadata: ["file": "\(path).damaged", "reason": "\(error.description)"])
            return nil
        }
        if let problem = contents.problem {
            logger.notice("the journal ends in a write that was never acknowledged; it is ignored", metadata: ["reason": "\(problem)"])
        }
        var replay = JournalFile.Replay()
        for (index, archive) in contents.archives.enumerated() {
            do throws(ArchiveFile.Failure) {
                replay.apply(try JournalRecord.decode(archive, registry: registry, source: "\(path) record \(index + 1)"))
            } catch {
                logger.error("skipped a damaged journal record", metadata: ["reason": "\(error.description)"])
            }
        }
        return (replay, contents.validLength)
    }

    /// Every archive in the directory that passes its checks.
    private func loadArchives(registry: TypeRegistry, logger: Logger) -> [NamedPasteboard] {
        guard let stream = opendir(directory) else {
            logger.warning("cannot read the state directory", metadata: ["directory": "\(directory)", "error": "\(String(cString: strerror(errno)))"])
            return []
        }
        defer { closedir(stream) }
        let names = DirectoryEntries.names(of: stream)
        var restored: [NamedPasteboard] = []
        for name in names.sorted() {
            let path = directory + "/" + name
            if name.hasSuffix(PasteboardArchive.fileExtension + ".tmp") {
                unlink(path)
                logger.notice("removed the remains of an interrupted write", metadata: ["file": "\(path)"])
                continue
            }
            guard name.hasSuffix(PasteboardArchive.fileExtension) else { continue }
            do {
                restored.append(try PasteboardArchive.read(path, registry: registry))
            } catch {
                logger.error("skipped a damaged pasteboard archive", metadata: ["file": "\(path)", "reason": "\(error.description)"])
            }
        }
        return restored
    }
}

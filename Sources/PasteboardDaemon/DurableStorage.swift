#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
import PasteboardProtocol
import PasteboardTypes

/// Where the daemon keeps its named pasteboards on disk (`$XDG_STATE_HOME/pasteboard/`): one
/// archive per pasteboard, and a journal of the newest small writes (see `StorageWriter`),
/// written before a copy is acknowledged and read back at start.
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
    /// arrive meanwhile). Throws `storage-failed` saying why; what is on disk then stays as it was.
    func save(_ pasteboard: NamedPasteboard) async throws(ProtocolError) {
        do {
            try await writer.save(pasteboard)
        } catch {
            throw ProtocolError(.storageFailed, "pasteboard '\(pasteboard.name)' was not changed: \(error.description)")
        }
    }

    /// Makes sure no content written before stays in the journal (see `StorageWriter`), as
    /// clearing the history needs; a failure is logged.
    func forgetEarlierContent(logger: Logger) async {
        do {
            try await writer.forgetEarlierContent()
        } catch {
            logger.error("earlier content may stay in the journal until the next checkpoint", metadata: ["reason": "\(error.description)"])
        }
    }

    /// Every pasteboard stored in the directory: each archive, unless the journal holds a newer
    /// content of it. Archives that fail their checks are logged and skipped (left on disk for
    /// inspection until the pasteboard is written again); leftover temporary files of an
    /// interrupted write are removed. What only the journal held is then written to its own
    /// file and the journal emptied.
    func loadAll(registry: TypeRegistry, logger: Logger) -> [NamedPasteboard] {
        var restored: [String: NamedPasteboard] = [:]
        for pasteboard in loadArchives(registry: registry, logger: logger) { restored[pasteboard.name] = pasteboard }
        guard let (journaled, validLength) = loadJournal(registry: registry, logger: logger) else { return Array(restored.values) }
        var newer: [NamedPasteboard] = []
        for pasteboard in journaled where pasteboard.changeCount > restored[pasteboard.name]?.changeCount ?? -1 {
            restored[pasteboard.name] = pasteboard
            newer.append(pasteboard)
        }
        writer.checkpointRecovered(newer, validLength: validLength)
        return Array(restored.values)
    }

    /// The newest content of each pasteboard in the journal and where its whole records end, or
    /// nil without a journal. A journal
    /// that is not one is set aside as `journal.damaged` (and logged); records that cannot be
    /// read are logged and skipped.
    private func loadJournal(registry: TypeRegistry, logger: Logger) -> (pasteboards: [NamedPasteboard], validLength: Int)? {
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
        var newest: [String: NamedPasteboard] = [:]
        for (index, archive) in contents.archives.enumerated() {
            do throws(ArchiveFile.Failure) {
                let pasteboard = try PasteboardArchive.decode(archive, registry: registry, source: "\(path) record \(index + 1)")
                newest[pasteboard.name] = pasteboard
            } catch {
                logger.error("skipped a damaged journal record", metadata: ["reason": "\(error.description)"])
            }
        }
        return (Array(newest.values), contents.validLength)
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

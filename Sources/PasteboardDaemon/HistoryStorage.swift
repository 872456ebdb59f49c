#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
import NIOPosix
import PasteboardProtocol
import PasteboardTypes

/// Where the general pasteboard's history is kept on disk: `history/` in the state directory
/// (mode 0700, created with the first entry), one file per entry (see `HistoryArchive`), so
/// recording a copy writes one file and trimming removes others, never rewriting the whole history.
struct HistoryStorage: Sendable {
    /// The history directory.
    let directory: String

    /// `history/` in `stateDirectory`. When it exists, it must belong to this user and not be
    /// writable by group or others, or this throws.
    init(stateDirectory: String) throws(DaemonError) {
        directory = stateDirectory + "/history"
        if access(directory, F_OK) == 0 { try SocketDirectory.prepare(directory) }
    }

    /// Stores `entry` durably (off the cooperative pool), creating the directory (0700) when
    /// missing; throws saying why, leaving any earlier file of it as it was.
    func save(_ entry: HistoryEntry) async throws(ArchiveFile.Failure) {
        let directory = directory
        let result: Result<Void, ArchiveFile.Failure>
        do {
            result = try await NIOThreadPool.singleton.runIfActive {
                Result { () throws(ArchiveFile.Failure) in
                    do {
                        try SocketDirectory.prepare(directory)
                    } catch {
                        throw ArchiveFile.Failure(description: "cannot use \(directory): \(error)")
                    }
                    try HistoryArchive.write(entry, to: directory)
                }
            }
        } catch {
            throw ArchiveFile.Failure(description: "pasteboardd is shutting down")
        }
        try result.get()
    }

    /// Removes the files of the entries `sequences` (off the cooperative pool), syncing the directory.
    func remove(_ sequences: [Int]) async {
        guard !sequences.isEmpty else { return }
        let directory = directory
        let paths = sequences.map { directory + "/" + HistoryArchive.fileName(of: $0) }
        _ = try? await NIOThreadPool.singleton.runIfActive { ArchiveFile.remove(paths, in: directory) }
    }

    /// Every entry stored in the directory, and the sequences of the files that fail their
    /// checks: those are logged and skipped (left on disk for inspection until the history is
    /// cleared). Leftover temporary files of an interrupted write are removed.
    func loadAll(registry: TypeRegistry, logger: Logger) -> (entries: [HistoryEntry], damaged: [Int]) {
        guard let stream = opendir(directory) else {
            if errno == ENOENT { return ([], []) }  // no entry was ever stored
            logger.warning("cannot read the history directory", metadata: ["directory": "\(directory)", "error": "\(String(cString: strerror(errno)))"])
            return ([], [])
        }
        defer { closedir(stream) }
        let names = DirectoryEntries.names(of: stream)
        var loaded: [HistoryEntry] = []
        var damaged: [Int] = []
        for name in names.sorted() {
            let path = directory + "/" + name
            if name.hasSuffix(HistoryArchive.fileExtension + ArchiveFile.temporarySuffix) {
                unlink(path)
                logger.notice("removed the remains of an interrupted write", metadata: ["file": "\(path)"])
                continue
            }
            guard let sequence = HistoryArchive.sequence(inFileName: name) else { continue }
            do {
                loaded.append(try HistoryArchive.read(path, registry: registry))
            } catch {
                damaged.append(sequence)
                logger.error("skipped a damaged history entry", metadata: ["file": "\(path)", "reason": "\(error.description)"])
            }
        }
        return (loaded, damaged)
    }
}

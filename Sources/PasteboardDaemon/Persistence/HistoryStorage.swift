#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
import PasteboardSystem
import PasteboardTypes

/// Where the general pasteboard's history is kept on disk: `history/` in the state directory
/// (mode 0700, created when the first entry's file is written), one file per entry (see
/// `HistoryArchive`), never rewriting the whole history. Entries are written and removed by
/// the state directory's writer, through its journal (see `StorageWriter`); this reads them back.
struct HistoryStorage: Sendable {
    /// The history directory.
    let directory: String

    /// The history directory of `stateDirectory`.
    static func directory(inStateDirectory stateDirectory: String) -> String {
        stateDirectory + "/history"
    }

    /// `history/` in `stateDirectory`. When anything is in its place, it must be a directory
    /// (not a symbolic link) of this user that group and others cannot write to, or this throws
    /// naming it the history directory.
    init(stateDirectory: String) throws(DaemonError) {
        directory = Self.directory(inStateDirectory: stateDirectory)
        var info = stat()
        if lstat(directory, &info) == 0 { try OwnDirectory.check(info, path: directory, kind: .history) }
    }

    /// Every entry stored in the directory, and the sequences of the files that fail their
    /// checks: those are logged and skipped (left on disk for inspection until the history is
    /// cleared). Leftover temporary files of an interrupted write are removed.
    func loadAll(registry: TypeRegistry, logger: Logger, spools: SpoolCatalog? = nil) -> (entries: [HistoryEntry], damaged: [Int]) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0, let stream = fdopendir(fd) else {
            let code = errno
            if fd >= 0 { close(fd) }
            if code == ENOENT { return ([], []) }  // no entry was ever stored
            logger.warning("cannot read the history directory", metadata: ["directory": "\(directory)", "error": "\(SystemError.describe(code))"])
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
                loaded.append(try HistoryArchive.read(path, registry: registry, spools: spools))
            } catch {
                damaged.append(sequence)
                logger.error("skipped a damaged history entry", metadata: ["file": "\(path)", "reason": "\(error.description)"])
            }
        }
        return (loaded, damaged)
    }
}

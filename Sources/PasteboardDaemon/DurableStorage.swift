#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
import NIOPosix
import PasteboardProtocol
import PasteboardTypes

/// Where the daemon keeps its named pasteboards on disk (`$XDG_STATE_HOME/pasteboard/`), one
/// archive per pasteboard, written before a copy is acknowledged and read back at start.
public struct DurableStorage: Sendable {
    /// The state directory (mode 0700).
    public let directory: String

    /// Uses `directory`, creating it (0700) when missing; refuses one owned by another user or
    /// writable by group or others.
    public init(directory: String) throws(DaemonError) {
        try SocketDirectory.prepare(directory)
        self.directory = directory
    }

    /// `$XDG_STATE_HOME/pasteboard`, else `$HOME/.local/state/pasteboard`; nil without either.
    public static func defaultDirectory(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/pasteboard" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/pasteboard" }
        return nil
    }

    /// Stores `pasteboard` durably (off the cooperative pool). Throws `storage-failed` saying
    /// why; the previous archive is then left as it was.
    func save(_ pasteboard: NamedPasteboard) async throws(ProtocolError) {
        let directory = directory
        let result: Result<Void, PasteboardArchive.Failure>
        do {
            result = try await NIOThreadPool.singleton.runIfActive {
                Result { () throws(PasteboardArchive.Failure) in try PasteboardArchive.write(pasteboard, to: directory) }
            }
        } catch {
            throw ProtocolError(.shuttingDown, "pasteboardd is shutting down")
        }
        if case .failure(let failure) = result {
            throw ProtocolError(
                .storageFailed,
                "pasteboard '\(pasteboard.name)' was not changed: \(failure.description)"
            )
        }
    }

    /// Every pasteboard stored in the directory. Archives that fail their checks are logged and
    /// skipped (left on disk for inspection until the pasteboard is written again); leftover
    /// temporary files of an interrupted write are removed.
    func loadAll(registry: TypeRegistry, logger: Logger) -> [NamedPasteboard] {
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

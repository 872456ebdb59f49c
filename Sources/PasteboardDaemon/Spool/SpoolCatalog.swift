#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
import PasteboardProtocol

/// The stored files the archives, journal records and history entries read at start name,
/// each opened once: a pasteboard and the history entries holding the same bytes share one
/// `SpoolFile` after a restart, as they did before it, so the bytes count once and the file
/// goes only when the last of them does.
///
/// A file that is missing, not a regular file of ours, or not of the size its record gives is
/// logged once, and whatever names it reads back unavailable: the rest of the content is kept.
/// Used only while the daemon restores its state, by one task.
final class SpoolCatalog {
    private let store: SpoolStore
    private let logger: Logger
    private var files: [String: SpoolFile] = [:]
    private var unusable: Set<String> = []

    init(store: SpoolStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// The ids of every file found usable: the ones the sweep at start keeps.
    var ids: Set<String> { Set(files.keys) }

    /// The stored file `id` of `size` bytes, named in `source`; nil (logged) when it cannot be
    /// used.
    func file(id: String, size: Int, namedIn source: String) -> SpoolFile? {
        if let file = files[id] {
            guard file.size == size else {
                logger.error("two records give a stored file different sizes; this one's representation is unavailable",
                             metadata: ["file": "\(file.path)", "record": "\(source)", "size": "\(size)", "stored": "\(file.size)"])
                return nil
            }
            return file
        }
        guard !unusable.contains(id) else { return nil }
        do {
            let file = try store.reopen(id: id, size: size)
            files[id] = file
            return file
        } catch {
            unusable.insert(id)
            logger.error("stored bytes are missing or damaged; the representation naming them is unavailable",
                         metadata: ["record": "\(source)", "reason": "\(error.message)"])
            return nil
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
package import PasteboardProtocol
import PasteboardSystem

/// The general pasteboard's history: recorded as the pasteboard is written, kept within its
/// limits, stored in `history/` of the state directory when the store is durable, and served
/// to the `history`, `history-search`, `history-restore` and `history-clear` requests.
///
/// Every change of the history, and of its files, happens during a write turn of the general
/// pasteboard (`beginWrite`; a settle arriving meanwhile waits for the turn's end), so the
/// files follow the history in memory in order.
extension PasteboardStore {
    /// The history from entry `start` on, newest first, as many entries as fit in a frame of
    /// `frameLimit` bytes (see `HistoryList.fitting`). Throws `invalid-argument` for a negative start.
    package func historyList(from start: Int = 0, frameLimit: Int = Int.max) throws(ProtocolError) -> HistoryList {
        let indices = try self.indices(from: start)
        return HistoryList.fitting(indices.lazy.map(historyInfo), in: frameLimit)
    }

    /// The entries from `start` on with a text representation that contains `text`, ignoring
    /// case, with their indices in the whole history; as many as fit in a frame of `frameLimit`
    /// bytes. Throws `invalid-argument` for empty text or a negative start.
    package func searchHistory(_ text: String, from start: Int = 0, frameLimit: Int = Int.max) throws(ProtocolError) -> HistoryList {
        guard !text.isEmpty else { throw ProtocolError(.invalidArgument, "'text' must not be empty") }
        let needle = text.lowercased()
        let registry = registry
        let matching = try indices(from: start).lazy.filter { self.history.entries[$0].containsText(needle, registry: registry) }
        return HistoryList.fitting(matching.map(historyInfo), in: frameLimit)
    }

    /// The indices of the entries from `start` on.
    private func indices(from start: Int) throws(ProtocolError) -> Range<Int> {
        guard start >= 0 else { throw ProtocolError(.invalidArgument, "'start' must be 0 or more, not \(start)") }
        return min(start, history.entries.count)..<history.entries.count
    }

    /// Makes entry `index` the general pasteboard's content again, as a write: stored first, a
    /// new change count, watchers told; the entry becomes entry 0. An entry that already is the
    /// current content changes nothing. Returns the change count. Throws `no-such-entry` for an
    /// index outside the history, and what a write throws; nothing changes then.
    package func restoreHistoryEntry(_ index: Int) async throws(ProtocolError) -> Int {
        guard index >= 0 else { throw ProtocolError(.invalidArgument, "'index' must be 0 or more, not \(index)") }
        await beginWrite(PasteboardName.general)
        defer { endWrite(PasteboardName.general) }
        let count = history.entries.count
        guard index < count else {
            throw ProtocolError(.noSuchEntry, count == 0
                ? "the history is empty: there is no entry \(index)"
                : "the history has no entry \(index): its entries are 0 to \(count - 1)")
        }
        let entry = history.entries[index]
        let current = pasteboard(named: PasteboardName.general)
        if entry.changeCount == current.changeCount { return current.changeCount }
        return try await replaceWhileWriting(PasteboardName.general, with: entry.keptItems, recordsHistory: true)
    }

    /// Forgets every history entry and removes their files, and earlier content from the
    /// journal; the current content stays.
    package func clearHistory() async {
        await beginWrite(PasteboardName.general)
        defer { endWrite(PasteboardName.general) }
        history.clear()
        await storeHistory(checkpoints: true)
    }

    /// Puts new history bounds in force (a reloaded configuration), dropping at once the oldest
    /// entries that no longer fit, their files, and what the journal held of them.
    package func setHistoryLimits(_ limits: HistoryLimits) async {
        await beginWrite(PasteboardName.general)
        defer { endWrite(PasteboardName.general) }
        history.setLimits(limits)
        await storeHistory(checkpoints: true)
    }

    /// The bounds the history keeps now.
    package var historyLimits: HistoryLimits { history.limits }

    // MARK: - Recording and storing

    /// The history as it is once the general pasteboard holds `pasteboard` in place of the
    /// content written at `previous`: what that content still promised leaves the history, and
    /// the new content becomes the newest entry when `recordsHistory` (and `ContentHistory`
    /// keeps it).
    func historyAfterWriting(_ pasteboard: NamedPasteboard, replacing previous: Int, recordsHistory: Bool) -> ContentHistory {
        var history = history
        history.contentLeft(changeCount: previous)
        // A content that came over a link is marked with the machine it came from.
        let linked = pasteboard.origin.flatMap { $0.machine == machine.id ? nil : $0 }
        if recordsHistory, !pasteboard.items.isEmpty,
           let skip = history.record(pasteboard.items, changeCount: pasteboard.changeCount, time: clock.seconds, origin: linked) {
            logger.debug("content not kept in the history", metadata: ["changeCount": "\(pasteboard.changeCount)", "reason": "\(skip.rawValue)"])
        }
        return history
    }

    /// Whether `transient` holds once the bytes its rule compares in stored files are read (on a
    /// thread of its own, `BlockingWork`; at once when it compares none).
    func confirm(_ transient: TransientCopy) async -> Bool {
        guard !transient.unsettled.isEmpty else { return true }
        return await BlockingWork.run { transient.bytesMatch() }
    }

    /// After the write whose history no longer holds `transient` was stored: checkpoints, so the
    /// journal's records of the transient copy leave the disk (its pasteboard record and its
    /// entry's). A failed checkpoint is logged (the journal then keeps them until the next);
    /// the write stands. The caller holds the general pasteboard's write turn.
    func checkpointAfterForgetting(_ transient: TransientCopy, in storage: DurableStorage) async {
        do {
            try await storage.saveHistory(HistoryChanges(), checkpoints: true)
            logger.notice("a transient copy left the history and the disk", metadata: [
                "changeCount": "\(transient.changeCount)", "replacedBy": "\(transient.cleared ? "nothing" : "what it replaced")",
            ])
        } catch {
            logger.error("a transient copy left the history, but the journal still holds it until its next checkpoint", metadata: [
                "changeCount": "\(transient.changeCount)", "reason": "\(error.description)",
            ])
        }
    }

    /// Performs the file operations the history owes: writes new and changed entries, removes
    /// the files of entries that left, through the storage's journal; with `checkpoints`, also
    /// empties the journal, so nothing of the entries that left stays on disk. Entries that
    /// cannot be stored are logged and kept in memory only. The caller holds the general
    /// pasteboard's write turn.
    func storeHistory(checkpoints: Bool = false) async {
        var checkpoints = checkpoints
        while true {
            var changes = history.takeFileChanges()
            guard let storage else { return }
            if historyStorage == nil { changes = HistoryChanges() }  // the history is in memory only
            if changes.isEmpty && !checkpoints { return }
            defer { checkpoints = false }
            do {
                try await storage.saveHistory(changes, checkpoints: checkpoints)
                for entry in changes.write { history.markSaved(entry.sequence) }
            } catch {
                logger.error("history not stored; it is kept in memory only", metadata: [
                    "entries": "\(changes.write.map(\.changeCount))", "reason": "\(error.description)",
                ])
            }
        }
    }

    /// Reads the history back from `history/` in `stateDirectory` (creating it when missing),
    /// then removes the files of entries beyond the limits. When the directory cannot be used,
    /// the history is kept in memory only, which is logged.
    func restoreHistory(stateDirectory: String, spools: SpoolCatalog? = nil) async {
        await beginWrite(PasteboardName.general)
        defer { endWrite(PasteboardName.general) }
        let storage: HistoryStorage
        do {
            storage = try HistoryStorage(stateDirectory: stateDirectory)
        } catch {
            logger.error("the history is kept in memory only", metadata: ["reason": "\(error)"])
            return
        }
        historyStorage = storage
        let (entries, damaged) = storage.loadAll(registry: registry, logger: logger, spools: spools)
        history.restore(entries, damaged: damaged)
        logger.info("restored history", metadata: ["entries": "\(history.entries.count)", "directory": "\(storage.directory)"])
        await storeHistory()
    }

    private func historyInfo(_ index: Int) -> HistoryEntryInfo {
        let entry = history.entries[index]
        let current = pasteboard(named: PasteboardName.general).changeCount == entry.changeCount
        return entry.info(index: index, current: current, registry: registry)
    }
}

package import PasteboardProtocol

/// The general pasteboard's history seen through a connection: the contents written to it,
/// newest first, as a clipboard manager lists them.
///
/// Entry 0 is the newest content recorded, which is the current content unless the pasteboard
/// was cleared or overwritten since by something the history does not keep: sensitive items,
/// items visible only to their writer, a copy that expires, content larger than the history's
/// byte budget. Copying content equal to an entry's moves that entry to the top. The daemon's
/// bounds (`pasteboardd --history-items`, `--history-bytes`) drop the oldest entries first.
public struct PasteboardHistory: Sendable {
    /// The connection requests go through.
    public let connection: PasteboardConnection

    /// The history of the general pasteboard on `connection`.
    public init(connection: PasteboardConnection) {
        self.connection = connection
    }

    /// Every entry, newest first: change count, time, items (types and sizes, never data) and a
    /// preview of its text.
    public func entries() async throws -> [Entry] {
        try await entryInfos().map { Entry($0, registry: connection.registry) }
    }

    /// Every entry as the daemon described it, for the package's tools that print it.
    package func entryInfos() async throws -> [HistoryEntryInfo] {
        try await list { .history(HistoryRequest(start: $0)) }
    }

    /// The entries with a text representation that contains `text`, ignoring case, each with
    /// its index in the whole history. `text` must not be empty.
    public func search(_ text: String) async throws -> [Entry] {
        try await searchInfos(text).map { Entry($0, registry: connection.registry) }
    }

    /// The entries `search` finds as the daemon described them, for the package's tools.
    package func searchInfos(_ text: String) async throws -> [HistoryEntryInfo] {
        try await list { .historySearch(HistorySearchRequest(text: text, start: $0)) }
    }

    /// Makes entry `index` the general pasteboard's content again (a new change count, which is
    /// returned; watchers see the change) and moves it to the top of the history. Restoring the
    /// current content changes nothing. Throws an error with code `no-such-entry` when the
    /// history has no entry `index`; nothing changes then.
    @discardableResult
    public func restore(_ index: Int) async throws -> Int {
        let reply = try await connection.answer(to: .historyRestore(HistoryRestoreRequest(index: index)))
        guard case .ok(let ok) = reply, let changeCount = ok.changeCount else { throw PasteboardConnection.unexpected(reply) }
        return changeCount
    }

    /// Forgets every entry (and removes them from disk); the pasteboard's current content stays.
    public func clear() async throws {
        let reply = try await connection.answer(to: .historyClear)
        guard case .ok = reply else { throw PasteboardConnection.unexpected(reply) }
    }

    /// Every entry the `request` for each start index describes, asking again from one past the
    /// last entry while the daemon says there are more than fit in one answer.
    private func list(_ request: (Int?) -> Message) async throws -> [HistoryEntryInfo] {
        var entries: [HistoryEntryInfo] = []
        var start: Int?
        while true {
            let reply = try await connection.answer(to: request(start))
            guard case .historyList(let list) = reply else { throw PasteboardConnection.unexpected(reply) }
            entries += list.entries
            guard list.more == true, let last = list.entries.last else { return entries }
            start = last.index + 1
        }
    }
}

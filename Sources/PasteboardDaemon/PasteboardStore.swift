import PasteboardProtocol
import PasteboardTypes

/// All named pasteboards of one daemon, and the watchers of each.
public actor PasteboardStore {
    /// The type registry used to describe representations (MIME types) and negotiate.
    public nonisolated let registry: TypeRegistry
    private var pasteboards: [String: NamedPasteboard] = [:]
    private var watchers: [String: [Int: AsyncStream<ItemsReply>.Continuation]] = [:]
    private var nextWatcherID = 0

    /// Creates an empty store.
    public init(registry: TypeRegistry) {
        self.registry = registry
    }

    /// A snapshot of the pasteboard called `name` (empty, change count 0, if never written).
    public func pasteboard(named name: String) -> NamedPasteboard {
        pasteboards[name] ?? NamedPasteboard(name: name)
    }

    /// Replaces the items of `name`; returns the new change count.
    @discardableResult
    public func replaceItems(of name: String, with items: [StoredItem]) -> Int {
        var pasteboard = pasteboard(named: name)
        pasteboard.replaceItems(items)
        pasteboards[name] = pasteboard
        notifyWatchers(of: pasteboard)
        return pasteboard.changeCount
    }

    /// The wire description of `name`'s current content.
    public func summary(of name: String) -> ItemsReply {
        summary(of: pasteboard(named: name))
    }

    /// The current summary of `name`, then a stream of summaries, one per later change, until
    /// the stream is dropped or `stop` is called. Taken atomically: no change is missed or seen twice.
    public func watch(_ name: String) -> (current: ItemsReply, changes: AsyncStream<ItemsReply>, stop: @Sendable () -> Void) {
        let id = nextWatcherID
        nextWatcherID += 1
        let (stream, continuation) = AsyncStream.makeStream(of: ItemsReply.self, bufferingPolicy: .bufferingNewest(1024))
        watchers[name, default: [:]][id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeWatcher(id, of: name) }
        }
        return (summary(of: name), stream, { continuation.finish() })
    }

    /// Finishes every watch stream (for shutdown).
    public func finishAllWatchers() {
        for continuations in watchers.values {
            for continuation in continuations.values { continuation.finish() }
        }
        watchers = [:]
    }

    private func removeWatcher(_ id: Int, of name: String) {
        watchers[name]?[id] = nil
        if watchers[name]?.isEmpty == true { watchers[name] = nil }
    }

    private func notifyWatchers(of pasteboard: NamedPasteboard) {
        guard let continuations = watchers[pasteboard.name], !continuations.isEmpty else { return }
        let reply = summary(of: pasteboard)
        for continuation in continuations.values { continuation.yield(reply) }
    }

    private func summary(of pasteboard: NamedPasteboard) -> ItemsReply {
        ItemsReply(
            pasteboard: pasteboard.name,
            changeCount: pasteboard.changeCount,
            items: pasteboard.items.map { $0.info(registry: registry) }
        )
    }
}

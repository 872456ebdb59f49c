#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
package import Logging
package import PasteboardProtocol
import PasteboardSystem
package import PasteboardTypes

/// All named pasteboards of one daemon, and the watchers of each.
package actor PasteboardStore {
    /// Holds the first reads of the bridged pasteboards back while a desktop bridge starts.
    package nonisolated let bridgeStartup = BridgeStartupGate()
    /// The types: built-in, `types.d` and declared by apps (see `PasteboardStore+Types.swift`).
    let types: SharedTypeRegistry
    private var pasteboards: [String: NamedPasteboard] = [:]
    private var watchers: [String: [Int: AsyncStream<ItemsReply>.Continuation]] = [:]
    private var nextWatcherID = 0
    /// Drag sessions in flight, by id. Each change tells `sessionChanges`.
    var sessions: [Int: DragSessionRecord] = [:] {
        didSet { sessionChanges.send(sessions.count) }
    }
    /// Told of each change of `sessions` (a session began, gained items, was dropped, ended;
    /// also participants joining and leaving, which a watcher's list does not show).
    nonisolated let sessionChanges = ChangeSignal<Int>()
    var nextSessionID = 1
    /// Drop zones kept for watching destinations, by id; each change is told as a session change
    /// (the zones are in every session list).
    var zones: [Int: DropZoneRecord] = [:] {
        didSet { sessionChanges.send(sessions.count) }
    }
    var nextZoneID = 1
    var nextParticipantID = 1
    /// How recent sessions ended, by id, so a late request hears why (bounded).
    var endedSessions: [Int: String] = [:]
    /// Loads from drag sessions in flight: stopped when their session ends.
    var sessionLoads: [Int: [ObjectIdentifier: TransferControl]] = [:]

    /// Where pasteboards are kept durably; nil keeps them in memory only.
    let storage: DurableStorage?
    /// Pasteboards with a write in progress, and the writes waiting for them (one at a time per name).
    private var writing: Set<String> = []
    private var waitingWrites: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// The general pasteboard's history (see `PasteboardStore+History.swift`).
    var history: ContentHistory
    /// Where the history is kept on disk; nil keeps it in memory only.
    var historyStorage: HistoryStorage?
    /// A promise of the general pasteboard settled while a write of it was in progress: its
    /// history part, applied when the write ends.
    struct DeferredSettle {
        var changeCount: Int
        var promise: StoredRepresentation.Promise
        var content: StoredRepresentation.Content
        var size: Int?
    }
    /// The settles waiting for the general pasteboard's write turn to end.
    private var deferredSettles: [DeferredSettle] = []
    /// For what goes wrong outside any request (history files that cannot be written).
    var logger = Logger(label: "pasteboardd")

    /// The pasteboards kept in memory only even with storage: `primary` by default (the primary
    /// selection changes with every mouse selection; a disk write for each would be waste, and
    /// what was selected is rarely worth keeping), unless `durable-primary` is set.
    let memoryOnlyPasteboards: Set<String>

    /// Creates an empty store, durable in `storage` when given (but for the pasteboards named in
    /// `memoryOnly`), whose general pasteboard keeps a history within `historyLimits`.
    /// The wall clock of expiries and the history's times (a test's own, moved forward by the test).
    nonisolated let clock: WallClock
    /// This daemon's machine, whose id the origins of its own changes carry.
    package nonisolated let machine: MachineIdentity
    /// The logical time of changes (see `LogicalClock`).
    private var logicalClock = LogicalClock()

    package init(registry: TypeRegistry, storage: DurableStorage? = nil, memoryOnly: Set<String> = [], historyLimits: HistoryLimits = HistoryLimits(),
                 clock: WallClock = .system, machine: MachineIdentity = .ephemeral()) {
        self.clock = clock
        self.machine = machine
        self.types = SharedTypeRegistry(registry)
        self.storage = storage
        self.memoryOnlyPasteboards = memoryOnly
        self.history = ContentHistory(limits: historyLimits)
    }

    /// The storage a write of pasteboard `name` goes to: none for a memory-only pasteboard.
    nonisolated func storage(for name: String) -> DurableStorage? {
        memoryOnlyPasteboards.contains(name) ? nil : storage
    }

    /// Where a write of pasteboard `name` stores its large eager bytes: durably for a durable
    /// pasteboard; as scratch for a memory-only one (`primary`), which is not kept across a
    /// restart but need not hold its large data in memory either; nil for a daemon without a
    /// state directory (`--memory-only`), which keeps everything in memory.
    nonisolated func spoolPlace(forPasteboard name: String) -> SpoolPlace? {
        guard let storage else { return nil }
        return SpoolPlace(store: storage.spools, durable: !memoryOnlyPasteboards.contains(name))
    }

    /// Where a drag session's large eager bytes are stored: scratch, as they last only as long
    /// as the session (nil for a daemon without a state directory).
    nonisolated var scratchSpoolPlace: SpoolPlace? {
        storage.map { SpoolPlace(store: $0.spools, durable: false) }
    }

    /// Loads the pasteboards kept in the storage (damaged archives are logged and skipped), and
    /// the general pasteboard's history, then clears the content whose expiry passed while the
    /// daemon was not running and sets the other expiries' timers again (see
    /// `restoreExpiries`); returns how many pasteboards were restored.
    @discardableResult
    package func restore(logger: Logger) async -> Int {
        self.logger = logger
        guard let storage else { return 0 }
        let spools = SpoolCatalog(store: storage.spools, logger: logger)
        var restored = storage.loadAll(registry: registry, logger: logger, spools: spools)
        // A pasteboard made memory-only since it was stored (durable-primary turned off) is
        // not restored, and its file goes: what the setting says stays off the disk does.
        for pasteboard in restored where memoryOnlyPasteboards.contains(pasteboard.name) {
            unlink(PasteboardArchive.path(of: pasteboard.name, in: storage.directory))
        }
        restored.removeAll { memoryOnlyPasteboards.contains($0.name) }
        for pasteboard in restored {
            pasteboards[pasteboard.name] = pasteboard
            if let origin = pasteboard.origin { logicalClock.observe(origin.clock) }
        }
        await restoreHistory(stateDirectory: storage.directory, spools: spools)
        // What a crash mid-copy, a failed commit or a damaged archive left in data/ goes; files
        // a record named but nothing restored holds go once the catalog lets them go, after
        // the next checkpoint (see `SpoolReclaimer`).
        storage.spools.sweep(keeping: spools.ids, logger: logger)
        await restoreExpiries()
        return restored.count
    }

    /// The type registry used to describe representations (MIME types) and negotiate,
    /// including the types apps declared.
    package nonisolated var registry: TypeRegistry { types.current }

    /// A snapshot of the pasteboard called `name` (empty, change count 0, if never written).
    package func pasteboard(named name: String) -> NamedPasteboard {
        pasteboards[name] ?? NamedPasteboard(name: name)
    }

    /// Replaces the items of `name` (only if its change count is still `ifChangeCount`, when
    /// given); returns the change count afterwards. With storage, the new content is on disk
    /// before it is visible or acknowledged; when storing fails, nothing changes and the error
    /// (`storage-failed`) is thrown. Sources whose promises left the pasteboard are told so.
    /// On a changed pasteboard, `conflict` says whether to leave it and return its change count
    /// (`.ignore`, as `clear` does) or to throw `conflict` (`.fail`, as `write` does).
    /// A write of the general pasteboard becomes its newest history entry (see `ContentHistory`)
    /// unless `recordsHistory` is false (a copy that expires is kept out of the history).
    /// With `expiringAfter` seconds, the content is cleared that long after, unless it changed
    /// meanwhile; the deadline is stored with it, so it holds across a restart. A write of the
    /// general pasteboard that shows the content it replaces was a transient copy (see
    /// `TransientCopy`) makes that content leave the history and the disk before it returns.
    /// With `origin` (a change a link brings from another machine), the items replace the
    /// content only if that origin is later than the current content's (see `ChangeOrigin`), or
    /// the same while some of the content is unavailable (its link dropped and came back);
    /// otherwise nothing changes and `superseded` is thrown. Without it, the change is this
    /// machine's own, at the next tick of its logical clock.
    @discardableResult
    package func replaceItems(
        of name: String, with items: [StoredItem], ifChangeCount: Int? = nil, conflict: ConflictHandling = .ignore,
        recordsHistory: Bool = true, expiringAfter seconds: Double? = nil, origin: ChangeOrigin? = nil
    ) async throws(ProtocolError) -> Int {
        await beginWrite(name)
        defer { endWrite(name) }
        let changeCount: Int
        let leftStoredFiles: Bool
        do {
            // In a scope of its own: the content replaced is let go of before the checkpoint
            // that removes the stored files a transient copy leaves.
            let current = pasteboard(named: name)
            if let ifChangeCount, ifChangeCount != current.changeCount {
                guard conflict == .fail else { return current.changeCount }
                throw ProtocolError(.conflict, "pasteboard '\(name)' changed (change count \(current.changeCount), not \(ifChangeCount)); nothing was written")
            }
            if let origin {
                if let problem = origin.problem { throw ProtocolError(.invalidArgument, problem) }
                logicalClock.observe(origin.clock)
                // The same change again is taken only to replace what a dropped link left
                // unavailable (a link that comes back offers its content anew).
                let leftUnavailable = current.items.contains { $0.representations.contains(where: \.isUnavailable) }
                if let currentOrigin = current.origin, origin < currentOrigin || (origin == currentOrigin && !leftUnavailable) {
                    throw ProtocolError(.superseded, "pasteboard '\(name)' holds a later change (\(currentOrigin)) than \(origin); nothing was written")
                }
            }
            var transient = name == PasteboardName.general
                ? TransientCopy.shown(by: items, replacing: current.changeCount, at: clock.seconds, in: history) : nil
            if let shown = transient, !(await confirm(shown)) { transient = nil }
            let expiry = seconds.map { ExpiryDeadline(after: $0, now: clock.now()) }
            changeCount = try await replaceWhileWriting(name, with: items, recordsHistory: recordsHistory, expiry: expiry, forgetting: transient, origin: origin)
            if let expiry { scheduleExpiry(of: name, at: changeCount, deadline: expiry) }
            leftStoredFiles = transient != nil && current.items.contains { $0.representations.contains { if case .stored = $0.content { true } else { false } } }
        }
        if leftStoredFiles, let storage {
            // What only the transient copy held is released now: one more checkpoint removes it.
            try? await storage.saveHistory(HistoryChanges(), checkpoints: true)
        }
        return changeCount
    }

    /// Replaces the items of `name`, whose write turn the caller holds (`beginWrite`), expiring
    /// at `expiry` when given; returns the new change count. With `forgetting`, the transient
    /// copy it names leaves the history with this write, and the journal is checkpointed before
    /// the new content is visible, so once it is, no file holds the transient copy's bytes (but
    /// for stored files the caller still holds; see `replaceItems`). See `replaceItems`.
    func replaceWhileWriting(
        _ name: String, with items: [StoredItem], recordsHistory: Bool, expiry: ExpiryDeadline? = nil, forgetting transient: TransientCopy? = nil,
        origin: ChangeOrigin? = nil
    ) async throws(ProtocolError) -> Int {
        let current = pasteboard(named: name)
        let stamp = origin ?? ChangeOrigin(machine: machine.id, name: machine.name, clock: logicalClock.tick(wallMilliseconds: clock.now()))
        let next = current.replacing(items, expiry: expiry, origin: stamp)
        // A write of the general pasteboard changes its history too: the history as it is once
        // the write is stored is planned first, and its file changes are stored with the
        // pasteboard, in the same sync. Nothing else changes the history while the turn is held
        // (see `settle`), so it takes the planned value once the write is stored.
        var planned = name == PasteboardName.general
            ? historyAfterWriting(next, replacing: current.changeCount, recordsHistory: recordsHistory) : nil
        if let transient { planned?.forget(sequence: transient.sequence) }
        let changes = planned?.takeFileChanges() ?? HistoryChanges()
        if let storage = storage(for: name) {
            try await storage.save(next, history: historyStorage == nil ? HistoryChanges() : changes)
            if let transient { await checkpointAfterForgetting(transient, in: storage) }
        }
        if var planned {
            if historyStorage != nil { for entry in changes.write { planned.markSaved(entry.sequence) } }
            history = planned
        }
        pasteboards[name] = next
        notifyWatchers(of: next)
        notifyReleased(current.items)
        return next.changeCount
    }

    /// What a conditional replacement does when the pasteboard changed since the given count.
    package enum ConflictHandling: Sendable {
        /// Leave the pasteboard and return its change count.
        case ignore
        /// Throw `conflict`.
        case fail
    }

    /// Stores `name` again as it now is (after promises were captured or became unavailable,
    /// which changes where bytes come from but not the change count). A failure is logged: the
    /// pasteboard in memory is unaffected, and the older archive stays valid.
    func storeAgain(_ name: String, logger: Logger) async {
        guard let storage = storage(for: name) else { return }
        await beginWrite(name)
        defer { endWrite(name) }
        guard let pasteboard = pasteboards[name] else { return }
        let changes = name == PasteboardName.general && historyStorage != nil ? history.takeFileChanges() : HistoryChanges()
        do {
            try await storage.save(pasteboard, history: changes)
            for entry in changes.write { history.markSaved(entry.sequence) }
        } catch {
            logger.error("captured data not stored", metadata: ["pasteboard": "\(name)", "reason": "\(error.message)"])
        }
        if name == PasteboardName.general { await storeHistory() }
    }

    /// Waits until no other write of `name` is in progress, then marks one.
    func beginWrite(_ name: String) async {
        guard writing.contains(name) else {
            writing.insert(name)
            return
        }
        await withCheckedContinuation { waitingWrites[name, default: []].append($0) }
    }

    /// Ends a write of `name`, handing the turn to the next waiting one. For the general
    /// pasteboard, the history settles that waited for the turn's end come first.
    func endWrite(_ name: String) {
        if name == PasteboardName.general {
            for settle in deferredSettles { history.settle(changeCount: settle.changeCount, promise: settle.promise, with: settle.content, size: settle.size) }
            deferredSettles = []
        }
        if var waiting = waitingWrites[name], !waiting.isEmpty {
            let next = waiting.removeFirst()
            waitingWrites[name] = waiting.isEmpty ? nil : waiting
            next.resume()
        } else {
            writing.remove(name)
        }
    }

    /// The pasteboards whose content expires, by name: their change count and deadline.
    func pasteboardsWithExpiry() -> [(name: String, changeCount: Int, deadline: ExpiryDeadline)] {
        pasteboards.values.sorted { $0.name < $1.name }.compactMap { pasteboard in
            pasteboard.expiry.map { (pasteboard.name, pasteboard.changeCount, $0) }
        }
    }

    /// The wire description of `name`'s current content.
    package func summary(of name: String) -> ItemsReply {
        summary(of: pasteboard(named: name))
    }

    // MARK: - Promises

    /// A promised representation on a pasteboard, as found by `promises(ownedBy:)`.
    struct OwnedPromise: Sendable {
        let pasteboard: String
        let changeCount: Int
        let item: Int
        let representation: Int
        let promise: StoredRepresentation.Promise
        let type: TypeIdentifier
        let size: Int?
        /// Whether the item is sensitive: its captured bytes stay in memory.
        let isSensitive: Bool
    }

    /// Every representation `owner` still promises, by pasteboard name, then item, then fidelity.
    func promises(ownedBy owner: any PromiseOwner) -> [OwnedPromise] {
        var result: [OwnedPromise] = []
        for name in pasteboards.keys.sorted() {
            let pasteboard = pasteboards[name]!
            for (itemIndex, item) in pasteboard.items.enumerated() {
                for (index, representation) in item.representations.enumerated() {
                    guard let promise = representation.promise, promise.owner === owner else { continue }
                    result.append(OwnedPromise(
                        pasteboard: name, changeCount: pasteboard.changeCount, item: itemIndex, representation: index,
                        promise: promise, type: representation.type, size: representation.size, isSensitive: item.isSensitive
                    ))
                }
            }
        }
        return result
    }

    /// Replaces a promise by captured data or by an unavailable marker, if the pasteboard still holds it.
    func settle(_ owned: OwnedPromise, with content: StoredRepresentation.Content, size: Int?) {
        guard var pasteboard = pasteboards[owned.pasteboard], pasteboard.changeCount == owned.changeCount,
              let current = pasteboard.items[owned.item].representations[owned.representation].promise,
              current.owner === owned.promise.owner, current.id == owned.promise.id
        else { return }
        pasteboard.settle(item: owned.item, representation: owned.representation, content: content, size: size)
        pasteboards[owned.pasteboard] = pasteboard
        if owned.pasteboard == PasteboardName.general {
            // While a write of the general pasteboard is in progress, its history is the
            // writer's: the settle waits for the write's end (`endWrite`).
            if writing.contains(PasteboardName.general) {
                deferredSettles.append(DeferredSettle(changeCount: owned.changeCount, promise: owned.promise, content: content, size: size))
            } else {
                history.settle(changeCount: owned.changeCount, promise: owned.promise, with: content, size: size)
            }
        }
    }

    /// `client` is gone: whatever it still promises becomes unavailable, saying why, and the
    /// drag sessions it began or dropped end.
    func clientGone(_ client: any PromiseOwner, reason: (OwnedPromise) -> String) {
        for owned in promises(ownedBy: client) {
            settle(owned, with: .unavailable(reason(owned)), size: nil)
        }
        connectionGoneFromSessions(client)
    }

    // MARK: - Watching

    /// The current summary of `name`, then a stream of summaries, one per later change, until
    /// the stream is dropped or `stop` is called. Taken atomically: no change is missed or seen twice.
    package func watch(_ name: String) -> (current: ItemsReply, changes: AsyncStream<ItemsReply>, stop: @Sendable () -> Void) {
        let id = nextWatcherID
        nextWatcherID += 1
        let (stream, continuation) = AsyncStream.makeStream(of: ItemsReply.self, bufferingPolicy: .bufferingNewest(64))
        watchers[name, default: [:]][id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeWatcher(id, of: name) }
        }
        return (summary(of: name), stream, { continuation.finish() })
    }

    /// Finishes every watch stream (for shutdown).
    package func finishAllWatchers() {
        types.changes.finishAll()
        sessionChanges.finishAll()
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

    /// Tells each owner whose promises were among `items` that they are gone from the pasteboard.
    func notifyReleased(_ items: [StoredItem]) {
        var byOwner: [ObjectIdentifier: (owner: any PromiseOwner, ids: [Int])] = [:]
        for item in items {
            for representation in item.representations {
                guard let promise = representation.promise else { continue }
                byOwner[ObjectIdentifier(promise.owner), default: (promise.owner, [])].ids.append(promise.id)
            }
        }
        for (owner, ids) in byOwner.values {
            Task { await owner.notifyReleased(ids) }
        }
    }

    private func summary(of pasteboard: NamedPasteboard) -> ItemsReply {
        ItemsReply(
            pasteboard: pasteboard.name,
            changeCount: pasteboard.changeCount,
            items: pasteboard.items.map { $0.info(registry: registry) },
            origin: pasteboard.origin,
            expiresIn: pasteboard.expiry.map { Double($0.remainingMilliseconds(now: clock.now())) / 1000 }
        )
    }
}

import PasteboardProtocol
/// The general pasteboard's history in memory: the contents written to it, newest first, within
/// its limits, and which entries' files must be written or removed.
///
/// Entry 0 is the newest content recorded; it is the pasteboard's current content unless the
/// pasteboard was cleared or overwritten by something the history does not keep since.
///
/// - A write is recorded unless it is empty, holds a sensitive item (`--sensitive`, or a
///   password manager's marker) or an item visible only to its writer, or is larger than the
///   whole byte budget. Unavailable representations are left out.
/// - A write whose content equals an entry's moves that entry to the top, with the new change
///   count and time (its first time kept), instead of adding a second one: consecutive copies
///   of the same text leave one entry, and restoring an entry makes it entry 0.
/// - Pending promises: see `HistoryEntry`. When the content leaves the pasteboard, its
///   promises end, and what is still pending is dropped.
/// - A transient copy (a password manager's: replaced soon by what it replaced, or by nothing)
///   leaves when it is replaced; see `TransientCopy`.
///
/// A value type: `PasteboardStore` owns it and performs the file operations it asks for.
struct ContentHistory: Sendable {
    /// The bounds now in force.
    private(set) var limits: HistoryLimits
    /// The entries, newest first.
    private(set) var entries: [HistoryEntry] = []
    private var nextSequence = 1
    /// Entries whose file must be (re)written, by sequence.
    private var unsaved: Set<Int> = []
    /// Entries that have a file.
    private var saved: Set<Int> = []
    /// Files that must go (their entries left).
    private var discarded: Set<Int> = []
    /// Files that were found damaged at start: kept for inspection until the history is cleared.
    private var damaged: Set<Int> = []
    /// What `entries` hold against the byte budget, counted as entries come and leave (every
    /// change to `entries` goes through `restore`, `record`, `update` and `remove(at:)`), so a
    /// copy does not recount every entry.
    private var held = HistoryHeldBytes([])

    /// An empty history bounded by `limits`.
    init(limits: HistoryLimits) {
        self.limits = limits
    }

    /// Why a write did not become an entry.
    enum Skip: String, Sendable {
        case disabled = "history is off"
        case empty = "nothing to keep"
        case sensitive = "sensitive"
        case privateToWriter = "visible only to its writer"
        case overBudget = "larger than the history's byte budget"
    }

    /// The bytes all entries hold together: a stored file several entries share counts once,
    /// as it is on disk once.
    var heldBytes: Int { held.total }

    /// Takes entries read back from disk (any order; each has a file), newest first, within the
    /// limits, and the sequences of damaged files, which new entries never reuse.
    mutating func restore(_ loaded: [HistoryEntry], damaged: [Int] = []) {
        entries = loaded.sorted { $0.sequence > $1.sequence }
        held = HistoryHeldBytes(entries)
        saved = Set(loaded.map(\.sequence))
        self.damaged = Set(damaged)
        nextSequence = ((loaded.map(\.sequence) + damaged).max() ?? 0) + 1
        trim()
    }

    /// Records `items`, just written to the pasteboard at `changeCount` (from `origin` when they
    /// came over a link), as the newest entry; returns why not when they are not kept.
    @discardableResult
    mutating func record(_ items: [StoredItem], changeCount: Int, time: Double, origin: ChangeOrigin? = nil) -> Skip? {
        guard limits.entries > 0 else { return .disabled }
        if items.contains(where: \.isSensitive) { return .sensitive }
        if items.contains(where: { $0.visibility != .all }) { return .privateToWriter }
        let kept: [StoredItem] = items.compactMap { item in
            var kept = item
            kept.representations = item.representations.filter { !$0.isUnavailable }
            return kept.representations.isEmpty ? nil : kept
        }
        guard !kept.isEmpty else { return .empty }
        var entry = HistoryEntry(sequence: nextSequence, changeCount: changeCount, time: time, items: kept, origin: origin)
        guard entry.heldBytes <= limits.bytes else { return .overBudget }
        nextSequence += 1
        if let same = entries.firstIndex(where: { $0.hasSameContent(as: kept) }) {
            entry.firstTime = min(entries[same].firstTime, time)
            remove(at: same)
        }
        entries.insert(entry, at: 0)
        held.add(entry)
        unsaved.insert(entry.sequence)
        trim()
        return nil
    }

    /// The content written at `changeCount` left the pasteboard: its pending promises are dropped.
    mutating func contentLeft(changeCount: Int) {
        guard let index = entries.firstIndex(where: { $0.changeCount == changeCount }), entries[index].hasPendingPromises else { return }
        update(at: index) { items in
            for item in items.indices { items[item].representations.removeAll { $0.promise != nil } }
        }
    }

    /// The representation `promise` promised in the content written at `changeCount` is now
    /// `content`: captured data is kept (the entry must be stored again), anything else dropped.
    mutating func settle(changeCount: Int, promise: StoredRepresentation.Promise, with content: StoredRepresentation.Content, size: Int?) {
        guard let index = entries.firstIndex(where: { $0.changeCount == changeCount }) else { return }
        let sequence = entries[index].sequence
        update(at: index) { items in
            for item in items.indices {
                for representation in items[item].representations.indices {
                    guard let pending = items[item].representations[representation].promise,
                          pending.owner === promise.owner, pending.id == promise.id
                    else { continue }
                    if Self.isHeld(content) {
                        items[item].representations[representation].content = content
                        if let size { items[item].representations[representation].size = size }
                    } else {
                        items[item].representations.remove(at: representation)
                    }
                    return
                }
            }
        }
        guard Self.isHeld(content), let index = entries.firstIndex(where: { $0.sequence == sequence }) else { return }
        unsaved.insert(sequence)
        if entries[index].heldBytes > limits.bytes { remove(at: index) }
        trim()
    }

    /// Whether `content` is bytes the daemon holds (in memory or stored), which an entry keeps.
    private static func isHeld(_ content: StoredRepresentation.Content) -> Bool {
        switch content {
        case .data, .stored: true
        case .promise, .file, .unavailable: false
        }
    }

    /// Entry `sequence` leaves, as if it had never been recorded (a transient copy: see
    /// `TransientCopy`); its file must go.
    mutating func forget(sequence: Int) {
        guard let index = entries.firstIndex(where: { $0.sequence == sequence }) else { return }
        remove(at: index)
    }

    /// Forgets every entry (their files must go, and damaged files too).
    mutating func clear() {
        while !entries.isEmpty { remove(at: entries.count - 1) }
        discarded.formUnion(damaged)
        damaged = []
    }

    /// Puts `limits` in force, dropping the oldest entries that no longer fit.
    mutating func setLimits(_ limits: HistoryLimits) {
        self.limits = limits
        entries.indices.reversed().forEach { index in
            if entries[index].heldBytes > limits.bytes { remove(at: index) }
        }
        trim()
    }

    /// The file operations owed: entries to write (those holding something to keep) and the
    /// sequences of files to remove. Asking for them hands them over.
    mutating func takeFileChanges() -> HistoryChanges {
        let write = entries.filter { unsaved.contains($0.sequence) && !$0.keptItems.isEmpty }
        unsaved = []
        let remove = discarded.sorted()
        discarded = []
        return HistoryChanges(write: write, remove: remove)
    }

    /// The file of entry `sequence` was written; if the entry left meanwhile, its file must go.
    mutating func markSaved(_ sequence: Int) {
        if entries.contains(where: { $0.sequence == sequence }) {
            saved.insert(sequence)
        } else {
            discarded.insert(sequence)
        }
    }

    /// Changes the items of entry `index`; an item left without representations goes, and an
    /// entry left without items goes too.
    private mutating func update(at index: Int, _ change: (inout [StoredItem]) -> Void) {
        held.remove(entries[index])
        change(&entries[index].items)
        entries[index].items.removeAll { $0.representations.isEmpty }
        held.add(entries[index])
        if entries[index].items.isEmpty { remove(at: index) }
    }

    private mutating func remove(at index: Int) {
        let entry = entries.remove(at: index)
        held.remove(entry)
        let sequence = entry.sequence
        unsaved.remove(sequence)
        if saved.remove(sequence) != nil { discarded.insert(sequence) }
    }

    /// Drops the oldest entries while either bound is passed.
    private mutating func trim() {
        while !entries.isEmpty, entries.count > limits.entries || held.total > limits.bytes {
            remove(at: entries.count - 1)
        }
    }
}

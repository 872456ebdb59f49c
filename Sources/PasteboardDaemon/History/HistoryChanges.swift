/// What the history's storage owes after a change of the history in memory: entries whose
/// file must be (re)written, and the sequences of entries whose file must go (see
/// `ContentHistory.takeFileChanges`, `StorageWriter`).
struct HistoryChanges: Sendable {
    /// Entries to write, each holding something to keep.
    var write: [HistoryEntry] = []
    /// Sequences of entries that left.
    var remove: [Int] = []

    /// Whether nothing is owed.
    var isEmpty: Bool { write.isEmpty && remove.isEmpty }
}

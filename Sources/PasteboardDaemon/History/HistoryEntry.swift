import PasteboardProtocol
import PasteboardTypes

/// One content of the general pasteboard kept in its history: the items as they were written,
/// with the representations whose bytes the history can keep.
///
/// Eager data is kept (the same buffers the pasteboard holds, so no bytes are copied), as are
/// file representations (their path; the file is read when the entry is pasted again). A
/// promised representation of the current content stays pending until its source hands the
/// bytes over (they are then kept, like eager data) or the promise ends without them (it is
/// dropped, with any item and entry left empty); see `ContentHistory`.
struct HistoryEntry: Sendable {
    /// The order in which entries were recorded (a later entry has a larger number); names its file.
    let sequence: Int
    /// The general pasteboard's change count when this content was written.
    var changeCount: Int
    /// When it was written, in seconds since 1970-01-01 00:00 UTC.
    var time: Double
    /// When this content first entered the history (as `time`): a copy of content the history
    /// held already moves its entry to the top with a new `time` and keeps this one, so a
    /// content copied again is never taken for a new, transient one (see `TransientCopy`).
    var firstTime: Double
    /// The items, each with at least one representation.
    var items: [StoredItem]
    /// The machine the content came from over a link; nil for this machine's own copies.
    var origin: ChangeOrigin?

    /// An entry written at `time`, whose content first entered the history at `firstTime`
    /// (by default then), from `origin` when it came over a link.
    init(sequence: Int, changeCount: Int, time: Double, firstTime: Double? = nil, items: [StoredItem], origin: ChangeOrigin? = nil) {
        self.origin = origin
        self.sequence = sequence
        self.changeCount = changeCount
        self.time = time
        self.firstTime = firstTime ?? time
        self.items = items
    }

    /// The bytes of data the entry holds (eager and captured), which count against the budget:
    /// those in memory, and each stored file once.
    var heldBytes: Int {
        storedFiles.values.reduce(memoryBytes) { $0.addingSaturating($1.size) }
    }

    /// The bytes of data the entry holds in memory.
    var memoryBytes: Int {
        items.reduce(0) { total, item in
            item.representations.reduce(total) { total, representation in
                if case .data = representation.content { return total.addingSaturating(representation.size ?? 0) }
                return total
            }
        }
    }

    /// The stored files the entry holds, by id: another entry holding the same file (the same
    /// copy, restored from the history) shares it, and the budget counts it once.
    var storedFiles: [String: SpoolFile] {
        var files: [String: SpoolFile] = [:]
        for item in items {
            for representation in item.representations {
                if case .stored(let file) = representation.content { files[file.id] = file }
            }
        }
        return files
    }

    /// The sum of the known sizes of all representations (`Int.max` when it exceeds that: a
    /// promise's size is what its source declared, up to `Int.max` each).
    var size: Int {
        items.reduce(0) { total, item in item.representations.reduce(total) { $0.addingSaturating($1.size ?? 0) } }
    }

    /// Whether a live source still promises some representation.
    var hasPendingPromises: Bool {
        items.contains { $0.representations.contains { $0.promise != nil } }
    }

    /// The items as they can be kept on disk or written to the pasteboard again: held data and
    /// files only; an item left without representations is left out.
    var keptItems: [StoredItem] {
        items.compactMap { item in
            var kept = item
            kept.representations = item.representations.filter { $0.promise == nil && !$0.isUnavailable }
            return kept.representations.isEmpty ? nil : kept
        }
    }

    /// Whether this entry holds exactly `items` (see `StoredItem.hasSameContent(as:)`).
    func hasSameContent(as items: [StoredItem]) -> Bool {
        self.items.count == items.count && zip(self.items, items).allSatisfy { $0.hasSameContent(as: $1) }
    }

    /// The wire description of this entry at `index`.
    func info(index: Int, current: Bool, registry: TypeRegistry) -> HistoryEntryInfo {
        HistoryEntryInfo(
            index: index, changeCount: changeCount, time: time, current: current ? true : nil,
            size: size, preview: preview(registry: registry), items: items.map { $0.info(registry: registry) }, origin: origin
        )
    }
}

public import PasteboardTypes

/// How the clipboard manager keeps what an exiting application handed over: pure decision from
/// what the pasteboard holds, testable without a display or daemon.
///
/// Why not simply a new item: the importer already put the application's copy on the pasteboard
/// (text captured, the rest promised), and the daemon recorded it in the history. A second,
/// eager item would be a second change and a second history entry for one copy (a promise equals
/// no bytes, so the history cannot tell they are the same). Settling the importer's promises
/// with the saved bytes instead (the daemon's capture of a relinquishing source) fills that one
/// item and its history entry in place. A new item is made only when the pasteboard no longer
/// holds the importer's item of that owner (it was never imported, or something newer came).
public enum HandoverKeeping: Sendable, Equatable {
    /// Everything saved is already eager on the pasteboard (a text-only copy): nothing to do.
    case alreadyKept
    /// The pasteboard holds the importer's item of this owner with promises: settle them.
    case settlePromises
    /// The pasteboard holds something else: put the saved bytes on it as a new eager item.
    case newItem

    /// The way to keep `saved` types of an owner whose offer was imported at `importedChangeCount`
    /// (nil: not the latest import), while the pasteboard is at `currentChangeCount` with the
    /// `lazy` types still promised.
    public static func decide(importedChangeCount: Int?, currentChangeCount: Int, lazy: [TypeIdentifier], saved: [TypeIdentifier]) -> HandoverKeeping {
        guard let importedChangeCount, importedChangeCount == currentChangeCount else { return .newItem }
        return saved.contains(where: lazy.contains) ? .settlePromises : .alreadyKept
    }
}

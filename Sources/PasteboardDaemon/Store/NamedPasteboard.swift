package import PasteboardProtocol

/// One named pasteboard: its items and its change count.
package struct NamedPasteboard: Sendable {
    /// The pasteboard's name (e.g. "general").
    package let name: String
    /// Grows by one on every write and clear; never reused.
    package private(set) var changeCount = 0
    /// The current items, in order.
    package private(set) var items: [StoredItem] = []
    /// When the current items expire (`write` with `expire`), or nil: stored with them, so the
    /// deadline survives a restart.
    private(set) var expiry: ExpiryDeadline?
    /// Where and when the current content was written (see `ChangeOrigin`); nil for a
    /// pasteboard never written, or stored by a daemon before links.
    package private(set) var origin: ChangeOrigin?

    /// An empty pasteboard.
    package init(name: String) { self.name = name }

    /// A pasteboard as it was stored: its change count, items and their expiry.
    init(name: String, changeCount: Int, items: [StoredItem], expiry: ExpiryDeadline? = nil, origin: ChangeOrigin? = nil) {
        self.name = name
        self.changeCount = changeCount
        self.items = items
        self.expiry = expiry
        self.origin = origin
    }

    /// This pasteboard with `newItems` in place of its items, written at `origin`, expiring at
    /// `expiry` when given, and the change counted.
    func replacing(_ newItems: [StoredItem], expiry: ExpiryDeadline? = nil, origin: ChangeOrigin? = nil) -> NamedPasteboard {
        var next = self
        next.replaceItems(newItems)
        next.expiry = expiry
        next.origin = origin
        return next
    }

    /// The change counts a pasteboard read from a file may have: counting on from the largest
    /// must not overflow (a damaged or forged file could say `Int.max`).
    static let changeCounts = 0...(1 << 62)

    /// Replaces the items (which do not expire) and counts the change.
    package mutating func replaceItems(_ newItems: [StoredItem]) {
        items = newItems
        expiry = nil
        changeCount += 1
    }

    /// Changes where one representation's bytes come from (a promise captured or lost); not a
    /// change of content, so the change count stays.
    mutating func settle(item: Int, representation: Int, content: StoredRepresentation.Content, size: Int?) {
        items[item].representations[representation].content = content
        if let size { items[item].representations[representation].size = size }
    }
}

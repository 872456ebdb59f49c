/// A pasteboard as the daemon holds it: its name, change count and items.
public struct NamedPasteboard: Sendable {
    /// The pasteboard's name (e.g. "general").
    public let name: String
    /// Grows by one on every write and clear; never reused.
    public private(set) var changeCount = 0
    /// The current items, in order.
    public private(set) var items: [StoredItem] = []

    /// An empty pasteboard.
    public init(name: String) { self.name = name }

    /// Replaces the items and counts the change.
    public mutating func replaceItems(_ newItems: [StoredItem]) {
        items = newItems
        changeCount += 1
    }
}

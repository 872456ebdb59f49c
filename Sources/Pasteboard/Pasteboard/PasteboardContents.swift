internal import PasteboardProtocol
import PasteboardTypes

/// A pasteboard's items as they stood at one change count: what `contents()` answers and what
/// `changes()` delivers at every copy, so a watcher sees the new items with the change they
/// belong to.
public struct PasteboardContents: Sendable {
    /// The pasteboard's name.
    public let pasteboard: String
    /// Its change count: it grows with every copy and clear, so two equal counts mean the same content.
    public let changeCount: Int
    /// The items, described (types, sizes when known, suggested names), without their data.
    public let items: [PasteboardItem]

    init(_ reply: ItemsReply, registry: TypeRegistry) {
        pasteboard = reply.pasteboard
        changeCount = reply.changeCount
        items = reply.items.enumerated().map { index, info in
            PasteboardItem(index: index, changeCount: reply.changeCount, info: info, registry: registry)
        }
    }
}

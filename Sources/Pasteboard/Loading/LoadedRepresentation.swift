internal import PasteboardProtocol
import PasteboardTypes

/// Which representation a load got: the daemon negotiates among the item's representations
/// by the types the destination accepts, so a destination that offered several types learns
/// here which one the bytes are (a PNG, or the plain-text fallback).
public struct LoadedRepresentation: Sendable, Hashable {
    /// The pasteboard's change count the bytes belong to (0 for an item of a drag session).
    public let changeCount: Int
    /// The item's index on the pasteboard or in the drag session.
    public let item: Int
    /// The representation's index within the item (0 is the highest fidelity).
    public let index: Int
    /// The representation's type.
    public let type: TypeIdentifier
    /// Its byte count, when the source declared one.
    public let size: Int?
    /// Its preferred MIME type, when the type has one.
    public let mimeType: String?
    /// The source's own file, when the load asked to open a file in place and the source
    /// allows it: no bytes are delivered, the destination reads this path.
    public let path: String?

    init(_ header: RepresentationHeader) {
        changeCount = header.changeCount
        item = header.item
        index = header.index
        type = TypeIdentifier(rawValue: header.type)
        size = header.size
        mimeType = header.mimeType
        path = header.path
    }
}

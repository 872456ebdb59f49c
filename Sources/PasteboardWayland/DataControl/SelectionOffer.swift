/// What a selection owner offers: its MIME types, best first as it listed them.
///
/// An offer is valid until the next selection of its kind replaces it; the compositor reuses
/// offer object ids, so each offer also carries a serial that stays unique for the connection,
/// and reading from a replaced offer is refused instead of reaching a different owner.
public struct SelectionOffer: Equatable, Hashable, Sendable {
    public let kind: SelectionKind
    /// The MIME types in the owner's order.
    public let mimeTypes: [String]
    /// The offer's object id on the connection (for logs).
    public let objectID: UInt32
    /// Unique per connection: tells apart offers whose object id the compositor reused.
    public let serial: UInt64
    /// Whether the owner offered more than `maximumMIMETypes` types (only the first are kept):
    /// an offer a bridge gives up on rather than imports in part.
    public let isOverflowing: Bool

    /// The most MIME types kept of one offer: a desktop offer has a few dozen, and every one
    /// is a string the peer chose (one offer of a million types took 393 MB).
    public static let maximumMIMETypes = 1024
    /// The longest MIME type kept; longer ones (no real type is) are dropped.
    public static let maximumMIMETypeLength = SourceLimits.maxMIMETypeLength

    public init(kind: SelectionKind, mimeTypes: [String], objectID: UInt32, serial: UInt64, isOverflowing: Bool = false) {
        self.kind = kind
        self.mimeTypes = mimeTypes
        self.objectID = objectID
        self.serial = serial
        self.isOverflowing = isOverflowing
    }
}

/// A selection changed: a new offer, or nil when the selection was cleared (its owner went
/// away without a successor).
public struct SelectionChange: Equatable, Sendable {
    public let kind: SelectionKind
    public let offer: SelectionOffer?

    public init(kind: SelectionKind, offer: SelectionOffer?) {
        self.kind = kind
        self.offer = offer
    }
}

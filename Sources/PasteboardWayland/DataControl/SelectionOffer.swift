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

    public init(kind: SelectionKind, mimeTypes: [String], objectID: UInt32, serial: UInt64) {
        self.kind = kind
        self.mimeTypes = mimeTypes
        self.objectID = objectID
        self.serial = serial
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

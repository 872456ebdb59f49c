internal import PasteboardProtocol
import PasteboardTypes

/// An item on a pasteboard as a destination sees it before loading: its representations'
/// types (best first), sizes when known, and suggested name.
public struct PasteboardItem: Sendable {
    /// One representation's description.
    public struct Representation: Sendable, Equatable {
        /// The type.
        public let type: TypeIdentifier
        /// The byte count, when known.
        public let size: Int?
        /// The preferred MIME type, when the type has one.
        public let mimeType: String?
        /// True when a live source produces the bytes at load time.
        public let isLazy: Bool
        /// True when the bytes can no longer be loaded (their source left without handing them over).
        public let isUnavailable: Bool
    }

    /// The item's index on the pasteboard.
    public let index: Int
    /// The pasteboard's change count when the item was described.
    public let changeCount: Int
    /// Representations, best first.
    public let representations: [Representation]
    /// A file name a destination may use.
    public let suggestedName: String?
    /// Who may load the item.
    public let visibility: ItemVisibility
    /// True for a secret the daemon keeps in memory only.
    public let isSensitive: Bool
    private let registry: TypeRegistry

    init(index: Int, changeCount: Int, info: ItemInfo, registry: TypeRegistry) {
        self.index = index
        self.changeCount = changeCount
        self.representations = info.representations.map {
            Representation(
                type: TypeIdentifier(rawValue: $0.type), size: $0.size, mimeType: $0.mimeType,
                isLazy: $0.lazy ?? false, isUnavailable: $0.unavailable ?? false
            )
        }
        self.suggestedName = info.suggestedName
        self.visibility = info.visibility.map(ItemVisibility.init) ?? .all
        self.isSensitive = info.isSensitive
        self.registry = registry
    }

    /// The representations' types, best first.
    public var types: [TypeIdentifier] { representations.map(\.type) }

    /// Whether some representation conforms to `type` (by this process's type registry).
    public func hasRepresentation(conformingTo type: TypeIdentifier) -> Bool {
        representations.contains { registry.conforms($0.type, to: type) }
    }

    /// The representation a load accepting `accepting` gets (the daemon's negotiation: the first
    /// accepted type some representation conforms to; among those, the best), passing over
    /// unavailable ones while another fits. Empty `accepting` means the first representation.
    public func representation(accepting accepted: [TypeIdentifier]) -> Representation? {
        let available = representations.filter { !$0.isUnavailable }
        if let index = registry.chooseRepresentation(among: available.map(\.type), accepting: accepted) { return available[index] }
        return registry.chooseRepresentation(among: types, accepting: accepted).map { representations[$0] }
    }
}

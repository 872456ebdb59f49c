/// One (target, property) pair of a MULTIPLE request (ICCCM §2.6.2).
public struct AtomPair: Equatable, Hashable, Sendable {
    public let target: Atom
    /// Where the requestor wants that conversion; the owner sets it to None when it refuses.
    public var property: Atom

    public init(target: Atom, property: Atom) {
        self.target = target
        self.property = property
    }
}

/// The property values a selection owner writes for the plumbing targets (ICCCM §2.6.2):
/// pure functions, tested byte for byte without a server.
public enum SelectionReplyEncoding {
    /// The most pairs a MULTIPLE request may hold here: 4096 pairs are 32 KiB, far beyond what
    /// any client asks, and they bound what one request makes the owner do.
    public static let maximumMultiplePairs = 4096

    /// A list of 32-bit atoms as the property data of type ATOM (TARGETS) or ATOM_PAIR.
    public static func atomList(_ atoms: [Atom]) -> [UInt8] {
        var writer = WireWriter(capacity: atoms.count * 4)
        for atom in atoms { writer.u32(atom.rawValue) }
        return writer.bytes
    }

    /// The TARGETS answer: the plumbing targets first (TARGETS, TIMESTAMP, MULTIPLE, as GTK and
    /// Qt list them), then the offered targets in the owner's order, each once.
    public static func targets(offered: [Atom], targets: Atom, timestamp: Atom, multiple: Atom) -> [Atom] {
        var seen: Set<Atom> = []
        return ([targets, timestamp, multiple] + offered).filter { seen.insert($0).inserted }
    }

    /// The TIMESTAMP answer: the time ownership was taken, one INTEGER of format 32.
    public static func timestamp(_ time: X11Timestamp) -> [UInt8] { atomList([Atom(time)]) }

    /// The pairs of a MULTIPLE request's property, as the requestor wrote them (type ATOM_PAIR,
    /// or ATOM from older clients; format 32, an even number of items, at most
    /// `maximumMultiplePairs`, read whole).
    public static func atomPairs(_ value: PropertyValue, atomPair: Atom) throws(X11Error) -> [AtomPair] {
        guard value.type != .none else { throw .malformedFromServer("the MULTIPLE request's property is missing") }
        guard value.type == atomPair || value.type == .atom, value.format == 32 else {
            throw .malformedFromServer("the MULTIPLE request's property has type \(value.type.rawValue) and format \(value.format), not ATOM_PAIR of 32 bits")
        }
        guard value.bytesAfter == 0 else { throw .malformedFromServer("the MULTIPLE request's property holds more than \(maximumMultiplePairs) pairs") }
        let items = value.items32
        guard items.count % 2 == 0, value.data.count == items.count * 4 else {
            throw .malformedFromServer("the MULTIPLE request's property holds \(value.data.count) bytes: not a list of atom pairs")
        }
        guard items.count / 2 <= maximumMultiplePairs else {
            throw .malformedFromServer("the MULTIPLE request's property holds \(items.count / 2) pairs (the most answered: \(maximumMultiplePairs))")
        }
        return stride(from: 0, to: items.count, by: 2).map { AtomPair(target: Atom(items[$0]), property: Atom(items[$0 + 1])) }
    }

    /// The MULTIPLE property written back: each refused pair's property replaced by None.
    public static func encodeAtomPairs(_ pairs: [AtomPair]) -> [UInt8] {
        atomList(pairs.flatMap { [$0.target, $0.property] })
    }
}

extension TypeRegistry {
    /// Chooses the representation a destination gets.
    ///
    /// `available` lists an item's representation types in fidelity order (best first);
    /// `accepted` lists the destination's types in its preference order. The choice is the first
    /// accepted type that some representation conforms to and, among the representations that
    /// conform to it, the one of highest fidelity. With nothing accepted, the first representation.
    /// Returns the index into `available`, or nil when nothing conforms.
    /// Complexity: O(accepted × available) conformance checks.
    public func chooseRepresentation(among available: [TypeIdentifier], accepting accepted: [TypeIdentifier]) -> Int? {
        if accepted.isEmpty { return available.isEmpty ? nil : 0 }
        for wanted in accepted {
            if let index = available.firstIndex(where: { conforms($0, to: wanted) }) { return index }
        }
        return nil
    }
}

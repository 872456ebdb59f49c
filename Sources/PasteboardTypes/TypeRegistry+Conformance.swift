/// Conformance queries; all answers come from sets computed when the registry was built.
extension TypeRegistry {
    /// All supertypes, transitively, nearest first (breadth-first, no duplicates, not including `type` itself).
    ///
    /// Dynamic `text/*` types have `public.text` and its supertypes; other dynamic types `public.data`
    /// and its supertypes; undeclared identifiers none.
    public func supertypes(of type: TypeIdentifier) -> [TypeIdentifier] {
        if let list = supertypeLists[type] { return list }
        guard let mime = type.dynamicMIMEType else { return [] }
        return Self.isTextMIMEType(mime) ? dynamicTextSupertypes : dynamicDataSupertypes
    }

    /// true when a == b or b is among a's supertypes. Dynamic types: public.data (+ public.text for text/*, + everything above those); undeclared non-dynamic identifiers conform only to themselves.
    ///
    /// O(1) on average: a set lookup.
    public func conforms(_ type: TypeIdentifier, to other: TypeIdentifier) -> Bool {
        if type == other { return true }
        if let set = supertypeSets[type] { return set.contains(other) }
        guard let mime = type.dynamicMIMEType else { return false }
        return Self.isTextMIMEType(mime) ? dynamicTextSupertypeSet.contains(other) : dynamicDataSupertypeSet.contains(other)
    }
}

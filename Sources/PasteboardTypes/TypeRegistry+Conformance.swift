/// Conformance queries; answers come from sets computed when the registry was built, except for
/// dynamic types with shared-mime-info attached, whose chains are walked on demand.
extension TypeRegistry {
    /// All supertypes, transitively, nearest first (breadth-first, no duplicates, not including `type` itself).
    ///
    /// Dynamic `text/*` types have `public.text` and its supertypes; other dynamic types `public.data`
    /// and its supertypes; undeclared identifiers none. With shared-mime-info attached, dynamic types
    /// have the chain it gives (see ``usingSharedMIMEInfo(from:)``).
    public func supertypes(of type: TypeIdentifier) -> [TypeIdentifier] {
        if let list = supertypeLists[type] { return list }
        guard let mime = type.dynamicMIMEType else { return [] }
        if let database = mimeDatabase { return dynamicSupertypes(of: type, in: database) }
        return Self.isTextMIMEType(mime) ? dynamicTextSupertypes : dynamicDataSupertypes
    }

    /// true when a == b or b is among a's supertypes. Dynamic types: public.data (+ public.text for text/*, + everything above those); undeclared non-dynamic identifiers conform only to themselves.
    ///
    /// O(1) on average: a set lookup; for a dynamic type with shared-mime-info attached,
    /// O(number of its supertypes).
    public func conforms(_ type: TypeIdentifier, to other: TypeIdentifier) -> Bool {
        if type == other { return true }
        if let set = supertypeSets[type] { return set.contains(other) }
        guard let mime = type.dynamicMIMEType else { return false }
        if mimeDatabase != nil { return supertypes(of: type).contains(other) }
        return Self.isTextMIMEType(mime) ? dynamicTextSupertypeSet.contains(other) : dynamicDataSupertypeSet.contains(other)
    }
}

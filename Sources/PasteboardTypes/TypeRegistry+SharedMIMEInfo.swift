/// Conformance of undeclared MIME types from a shared-mime-info database.
///
/// With a database attached, the dynamic type of an undeclared MIME type conforms to the types of
/// the parents the database lists, resolved through the registry (so `text/plain` is
/// `public.plain-text` with everything above it), and, by shared-mime-info's implicit rules, every
/// `text/*` type to `text/plain` and every type to `application/octet-stream`, which is
/// `public.data` here. An alias resolves to its canonical MIME type. Declared types (built-in,
/// user or app declarations) always win: the database is consulted only for MIME types no
/// declaration names. An empty database (none installed) changes nothing.
extension TypeRegistry {
    /// The MIME type shared-mime-info puts at the root of everything streamable.
    static let octetStream = "application/octet-stream"

    /// This registry, with undeclared MIME types related through the shared-mime-info databases
    /// in `directories` (`mime` directories such as `/usr/share/mime`, most important first).
    ///
    /// Nothing is read now: the `aliases` files are read the first time an undeclared MIME type is
    /// resolved, the `subclasses` files the first time one is related to other types, so commands
    /// that never meet one pay nothing (`pb paste -t text` reads neither; `pb paste -t text/x-foo`
    /// the aliases only). Registries derived from the result with ``adding(_:source:)`` share
    /// what was read.
    public func usingSharedMIMEInfo(from directories: [String]) -> TypeRegistry {
        var registry = self
        registry.sharedMIMEInfo = LazySharedMIMEInfo(directories: directories)
        return registry
    }

    /// This registry, with undeclared MIME types related through `info`.
    public func usingSharedMIMEInfo(_ info: SharedMIMEInfo) -> TypeRegistry {
        var registry = self
        registry.sharedMIMEInfo = LazySharedMIMEInfo(info)
        return registry
    }

    /// The attached database when it knows anything, reading it on first use; `nil` otherwise.
    var mimeDatabase: SharedMIMEInfo? {
        guard let info = sharedMIMEInfo?.value, !info.isEmpty else { return nil }
        return info
    }

    /// The type for a MIME type no declaration names: the type of its canonical MIME type when
    /// `database` knows it as an alias, else its own dynamic type (parameters dropped).
    func undeclaredType(forMIMEType mime: String, in database: SharedMIMEInfo?) -> TypeIdentifier {
        let base = MIMEType.base(of: mime)
        guard let canonical = database?.canonicalType(ofAlias: base) else { return .dynamic(mimeType: base) }
        return declaredType(forMIMEType: canonical) ?? .dynamic(mimeType: canonical)
    }

    /// ``type(forMIMEType:)`` with `database` as the attached one.
    private func type(forMIMEType mime: String, in database: SharedMIMEInfo) -> TypeIdentifier {
        declaredType(forMIMEType: mime) ?? undeclaredType(forMIMEType: mime, in: database)
    }

    /// The direct parents of a dynamic type, by `database` and its implicit rules.
    ///
    /// A type whose MIME type resolves to another type (it is declared, an alias, or spelled with
    /// capitals or parameters) has one parent: that type. Otherwise the listed parents in order,
    /// then `text/plain` for `text/*`; with neither, `public.data`. `application/octet-stream`
    /// (unless declared) stands for `public.data`. Not a dynamic type: no parents.
    func dynamicParents(of dynamicType: TypeIdentifier, in database: SharedMIMEInfo) -> [TypeIdentifier] {
        guard let mime = dynamicType.dynamicMIMEType else { return [] }
        let resolved = type(forMIMEType: mime, in: database)
        if resolved != dynamicType { return [resolved] }
        // From here on `mime` is lowercased and without parameters: it resolves to itself.
        var names = database.parents(of: mime)
        if Self.isTextMIMEType(mime), mime != "text/plain" { names.append("text/plain") }
        let data: TypeIdentifier? = byIdentifier[.data] == nil ? nil : .data
        var parents: [TypeIdentifier] = names.map { name in
            let type = type(forMIMEType: name, in: database)
            return type == .dynamic(mimeType: Self.octetStream) ? data ?? type : type
        }
        if parents.isEmpty, mime != Self.octetStream, let data { parents = [data] }
        var seen: Set<TypeIdentifier> = [dynamicType]
        return parents.filter { seen.insert($0).inserted }
    }

    /// Supertypes of the dynamic type `dynamicType` by `database`, nearest first: breadth-first
    /// through declared parents and the database's, then `public.data` and its supertypes if the
    /// chain has not reached them (every dynamic type is data).
    ///
    /// Complexity: O(number of ancestors), each a few dictionary lookups.
    func dynamicSupertypes(of dynamicType: TypeIdentifier, in database: SharedMIMEInfo) -> [TypeIdentifier] {
        var chain = Self.breadthFirstSupertypes(of: dynamicType) { type in
            byIdentifier[type]?.conformsTo ?? dynamicParents(of: type, in: database)
        }
        let reached = Set(chain)
        chain += dynamicDataSupertypes.filter { !reached.contains($0) }
        return chain
    }
}

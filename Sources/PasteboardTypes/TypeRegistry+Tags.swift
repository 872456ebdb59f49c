/// Lookups between types and their tags (MIME types, filename extensions).
extension TypeRegistry {
    /// UTI, MIME type, or nil. A declared identifier -> itself; a MIME type (contains "/") -> the declared type with that MIME type, else dynamic; a bare `x-` name a declaration lists as its MIME type (`x-kde-passwordManagerHint`) -> that type; otherwise nil (unknown).
    ///
    /// A `dyn.mime.*` identifier resolves like its MIME type, so `dyn.mime.image/png` gives `public.png`.
    public func resolve(_ string: String) -> TypeIdentifier? {
        let trimmed = string.trimmingASCIIWhitespace()
        let identifier = TypeIdentifier(trimmed)
        if byIdentifier[identifier] != nil { return identifier }
        let mime = identifier.dynamicMIMEType ?? trimmed
        let parts = MIMEType.base(of: mime).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            // No type/subtype: only a bare name a declaration lists (x-kde-passwordManagerHint).
            return declaredType(forMIMEType: mime)
        }
        return type(forMIMEType: mime)
    }

    /// The declared type with MIME type `mime`, else the dynamic type for it.
    ///
    /// Case-insensitive. A declaration's MIME type with parameters (`text/plain;charset=utf-8`) is
    /// matched first; otherwise parameters are ignored. With shared-mime-info attached (see
    /// ``usingSharedMIMEInfo(from:)``), an undeclared alias gives the type of its canonical MIME
    /// type; only then, and only for undeclared MIME types, are the database's `aliases` files read.
    public func type(forMIMEType mime: String) -> TypeIdentifier {
        declaredType(forMIMEType: mime) ?? undeclaredType(forMIMEType: mime, in: sharedMIMEInfo?.aliases)
    }

    /// The declared type with MIME type `mime` (parameters matched first, then ignored), if any.
    func declaredType(forMIMEType mime: String) -> TypeIdentifier? {
        mimeIndex[MIMEType.normalized(mime)] ?? mimeIndex[MIMEType.base(of: mime)]
    }

    /// The declared type with filename extension `ext`; case-insensitive, with or without a leading dot.
    public func type(forFilenameExtension ext: String) -> TypeIdentifier? {
        var key = Substring(ext.lowercased())
        if key.hasPrefix(".") { key = key.dropFirst() }
        guard !key.isEmpty else { return nil }
        return extensionIndex[String(key)]
    }

    /// The first MIME type declared for `type`, or a dynamic type's MIME type; `nil` if it has none.
    public func preferredMIMEType(for type: TypeIdentifier) -> String? {
        if let declaration = byIdentifier[type] { return declaration.mimeTypes.first }
        return type.dynamicMIMEType
    }

    /// The first filename extension declared for `type`, if any.
    public func preferredFilenameExtension(for type: TypeIdentifier) -> String? {
        byIdentifier[type]?.filenameExtensions.first
    }
}

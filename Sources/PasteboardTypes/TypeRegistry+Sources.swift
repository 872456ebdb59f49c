/// The order of a registry's declarations and where each came from.
extension TypeRegistry {
    /// All declarations in the order they were added: built-ins first, then each addition's in
    /// its order (a replaced declaration keeps its place).
    ///
    /// The order decides tag clashes (the first declaration of a MIME type or extension wins), so
    /// a registry built by adding these in this order answers lookups as this one does; a daemon
    /// sends its declarations in this order for that reason.
    public var declarationsInOrder: [TypeDeclaration] { ordered }

    /// Where the declaration of `type` came from, as its addition named it: `"built-in"` for the
    /// built-in types, a file's path for a declaration file's; nil when `type` is not declared
    /// (a dynamic type is synthesised, not declared). O(1) on average.
    public func source(of type: TypeIdentifier) -> String? { sources[type] }

    /// The application whose declaration file declares `type` (the file's `app` member): the
    /// app that may replace that declaration when it connects. Nil for a built-in type, an app's
    /// own declaration, or a file that names no app.
    public func app(owningFileOf type: TypeIdentifier) -> String? {
        sources[type].flatMap { fileApps[$0] }
    }
}

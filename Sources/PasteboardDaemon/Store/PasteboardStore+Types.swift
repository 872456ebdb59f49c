import PasteboardProtocol
package import PasteboardTypes

/// The store's type declarations: what apps declare, what `types` lists, what a reload of
/// `types.d` replaces. Items keep their type identifiers through all of it.
extension PasteboardStore {
    /// Adds or replaces an app's type declarations (see `SharedTypeRegistry.declare`).
    @discardableResult
    nonisolated func declare(_ declarations: [TypeDeclaration], app: String) throws(ProtocolError) -> SharedTypeRegistry.Declared {
        try types.declare(declarations, app: app)
    }

    /// The `type-list` answer to `types` (see `SharedTypeRegistry.typeList`).
    nonisolated func typeList(from start: Int, frameLimit: Int) throws(ProtocolError) -> TypeList {
        try types.typeList(from: start, frameLimit: frameLimit)
    }

    /// Puts freshly loaded built-in and `types.d` declarations in the place of the old ones (see
    /// `SharedTypeRegistry.replaceFiles`).
    nonisolated package func replaceFileTypes(with files: TypeRegistry) -> SharedTypeRegistry.Reload {
        types.replaceFiles(with: files)
    }
}

import PasteboardTypes

extension Pasteboard {
    /// Copies `value` (all the representations its `Transferable` conformance exports) to the
    /// pasteboard called `name`, in one call: connects as `configuration` says, writes, and
    /// returns the new change count. Lazy representations are produced as the connection
    /// closes: the daemon captures them within its budget, so they paste after this returns. A
    /// source that should keep serving (large or costly data, several items) uses `LiveSource`
    /// instead.
    @discardableResult
    public static func copy<T: Transferable>(
        _ value: T, to name: String = "general", using configuration: PasteboardConnection.Configuration
    ) async throws -> Int {
        var item = ItemProvider()
        item.register(value)
        let items = [item]
        return try await PasteboardConnection.withConnection(configuration) { connection in
            try await Pasteboard(name: name, connection: connection).setItems(items)
        }
    }

    /// Loads the first item of the pasteboard called `name` as a `T`, in one call (connecting
    /// as `configuration` says): the counterpart of `copy(_:to:using:)`. Throws the daemon's
    /// `noSuchItem` when the pasteboard is empty and `noConformingRepresentation` when nothing
    /// on it converts to a `T`.
    public static func paste<T: Transferable>(
        _ type: T.Type, from name: String = "general", using configuration: PasteboardConnection.Configuration
    ) async throws -> T {
        try await PasteboardConnection.withConnection(configuration) { connection in
            try await Pasteboard(name: name, connection: connection).load(type)
        }
    }

    /// `copy(_:to:using:)` connecting as `clientName`, declaring `types`.
    @discardableResult
    public static func copy<T: Transferable>(
        _ value: T, to name: String = "general", clientName: String,
        declaring types: [TypeDeclaration] = [], socketPath: String = PasteboardConnection.defaultSocketPath
    ) async throws -> Int {
        try await copy(value, to: name, using: .init(clientName: clientName, declaring: types, socketPath: socketPath))
    }

    /// `paste(_:from:using:)` connecting as `clientName`, declaring `types`.
    public static func paste<T: Transferable>(
        _ type: T.Type, from name: String = "general", clientName: String,
        declaring types: [TypeDeclaration] = [], socketPath: String = PasteboardConnection.defaultSocketPath
    ) async throws -> T {
        try await paste(type, from: name, using: .init(clientName: clientName, declaring: types, socketPath: socketPath))
    }
}

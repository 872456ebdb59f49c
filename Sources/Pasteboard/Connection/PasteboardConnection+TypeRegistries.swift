internal import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes

extension PasteboardConnection {
    /// The daemon's type declarations as a registry — the built-in types, the user's `types.d`
    /// as the daemon last read it, and every app's declarations, in the daemon's order — now,
    /// then again each time they change (an app declares or replaces a type, `types.d` is
    /// reloaded), until the consuming task stops iterating.
    ///
    /// Why: a program that maps types for others (a clipboard bridge, a converter) must see the
    /// types apps declare when they connect and their upgrades, which no file on this machine
    /// holds (the daemon may run elsewhere, and an app's declarations last only in the daemon).
    /// Undeclared MIME types resolve through this process's shared-mime-info, as in `registry`.
    ///
    /// The stream throws `PasteboardError.connectionLost` when the daemon goes away, and
    /// `PasteboardError.daemon` with `unknown-message` from a daemon that cannot be followed.
    public func typeRegistries() -> AsyncThrowingStream<TypeRegistry, any Error> {
        let connection = self
        return watching(.watchTypes) { message in
            guard case .typesChanged = message else { return nil }
            var reading = TypeListReading()
            while true {
                if let whole = try reading.take(try await connection.answer(to: reading.nextRequest, keepingErrors: true)) {
                    return try Self.registry(of: whole.declarations.map(\.declaration))
                }
            }
        }
    }

    /// A registry of the daemon's declarations in its order, with this process's shared-mime-info.
    private static func registry(of declarations: [TypeDeclaration]) throws -> TypeRegistry {
        let registry: TypeRegistry
        do {
            registry = try TypeRegistry(declarations: declarations)
        } catch {
            throw PasteboardError.daemon(ProtocolError(.malformedMessage, "pasteboardd's type declarations do not make a registry: \(error)"))
        }
        return registry.usingSharedMIMEInfo(from: SharedMIMEInfo.databaseDirectories(environment: ProcessEnvironment.current()))
    }
}

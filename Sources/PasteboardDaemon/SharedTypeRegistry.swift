import PasteboardProtocol
import PasteboardTypes
import Synchronization

/// The daemon's type registry: the built-in and user declarations it started with, plus the
/// declarations apps bring when they connect (`declare`). Declarations stay for the daemon's
/// lifetime; declaring the same declaration again is accepted, a different one for a declared
/// identifier is refused.
final class SharedTypeRegistry: Sendable {
    private let registry: Mutex<TypeRegistry>

    init(_ registry: TypeRegistry) {
        self.registry = Mutex(registry)
    }

    /// The registry as it is now.
    var current: TypeRegistry { registry.withLock { $0 } }

    /// Adds `declarations` from `client` all at once, or none of them; throws `invalid-argument`
    /// naming the first problem (a clash with an existing declaration, a bad field, an unknown parent).
    func declare(_ declarations: [TypeDeclaration], client: String) throws(ProtocolError) {
        try registry.withLock { registry throws(ProtocolError) in
            let new = declarations.filter { registry.declaration(for: $0.identifier) != $0 }
            guard !new.isEmpty else { return }
            let result = registry.adding(new, source: "types declared by \(client)")
            if let error = result.errors.first {
                throw ProtocolError(.invalidArgument, "\(error.field): \(error.message)")
            }
            registry = result.registry
        }
    }
}

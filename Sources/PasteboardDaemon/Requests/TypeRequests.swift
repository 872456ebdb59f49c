import Logging
import PasteboardProtocol
import PasteboardTypes

/// The requests about the type registry: `types` (the declared types, a page at a time),
/// `watch-types` (its changes) and `declare` (an app's own types).
struct TypeRequests: Sendable {
    let context: RequestContext

    /// `types`: a page of declarations from `start`, as many as fit a frame.
    nonisolated(nonsending) func list(_ request: TypesRequest, id: UInt32) async throws {
        do {
            try await context.answer(.typeList(try context.store.typeList(from: request.start ?? 0, frameLimit: context.configuration.maxFrameLength)), on: id)
        } catch let error as ProtocolError {
            try await context.fail(error, on: id)
        }
    }

    /// `watch-types`: the generation now, then again each time it changes, until the client cancels.
    nonisolated(nonsending) func watch(id: UInt32) async throws {
        let registry = context.store.types
        // Listen first, then read: a change in between is told, and sent once (`last`).
        let (changes, stop) = registry.changes.listen()
        let current = registry.generation
        context.watch(id: id, named: "watch-types", stop: stop) { writer in
            var last = current
            try await writer.send(.typesChanged(TypesChanged(generation: current)), on: id)
            for await generation in changes where generation != last {
                last = generation
                try await writer.send(.typesChanged(TypesChanged(generation: generation)), on: id)
            }
        }
    }

    /// `declare`: adds or replaces the client's application's types.
    nonisolated(nonsending) func declare(_ request: DeclareRequest, id: UInt32) async throws {
        let app = context.client.app
        do {
            let declared = try context.store.declare(request.types, app: app)
            context.logger.info("types declared", metadata: [
                "app": "\(app)", "added": "\(declared.added.map(\.rawValue))", "replaced": "\(declared.replaced.map(\.rawValue))",
            ])
            try await context.answer(.ok(OK()), on: id)
        } catch let error as ProtocolError {
            context.logger.notice("types not declared", metadata: ["app": "\(app)", "reason": "\(error.message)"])
            try await context.fail(error, on: id)
        }
    }
}

import PasteboardProtocol
package import PasteboardTypes
import Synchronization

/// The daemon's type registry: the built-in types and the user's `types.d` declarations (the
/// *file* declarations, replaced as a whole when `types.d` is reloaded), plus the declarations
/// apps make when they connect (`declare`).
///
/// An app's declarations are its own, by its application name (`hello.app`, else the client
/// name): declaring the same declaration again changes nothing, and a different one of an
/// identifier the same app declared, or a declaration file names the app as its own (the file
/// `TypeDeclaration.install` writes), replaces it; a different one of an identifier declared
/// by another app, a built-in type or a file that is not the app's is refused with
/// `type-conflict`, naming who declared it. So an app that installed its types and is then
/// upgraded declares the new ones when it connects, with no reload or restart. Stored items
/// keep their type identifiers: what a replaced type conforms to follows the new declaration.
package final class SharedTypeRegistry: Sendable {
    private struct State: Sendable {
        /// Built-in and `types.d` declarations: the registry apps' declarations are added to.
        var files: TypeRegistry
        /// `files` plus the apps' declarations.
        var current: TypeRegistry
        /// The application that declared each app-declared type.
        var apps: [TypeIdentifier: String] = [:]
        /// Counts the changes, for `type-list`.
        var generation = 0
    }

    private let state: Mutex<State>
    /// Told the new generation after each change (`watch-types`).
    let changes = ChangeSignal<Int>()

    /// A registry of `files` (built-in and `types.d` declarations) and no app declarations yet.
    init(_ files: TypeRegistry) {
        state = Mutex(State(files: files, current: files))
    }

    /// The registry as it is now.
    var current: TypeRegistry { state.withLock { $0.current } }

    /// Counts the changes, as `type-list` and `types-changed` give it.
    var generation: Int { state.withLock { $0.generation } }

    /// The source string the registry keeps for a declaration of `app` (error messages name it).
    static func source(app: String) -> String { "app '\(app)'" }

    /// What a `declare` changed.
    struct Declared: Sendable, Equatable {
        /// Types declared for the first time.
        var added: [TypeIdentifier] = []
        /// Types whose declaration by the same app was replaced.
        var replaced: [TypeIdentifier] = []
    }

    /// Adds or replaces `declarations` of `app` all at once, or none of them; throws
    /// `type-conflict` for an identifier another app, a built-in type or a file that is not the
    /// app's declares differently, and `invalid-argument` naming any other problem (a bad
    /// field, an unknown parent, a replacement that would break a type that conforms to it).
    @discardableResult
    func declare(_ declarations: [TypeDeclaration], app: String) throws(ProtocolError) -> Declared {
        let (declared, generation) = try state.withLock { state throws(ProtocolError) -> (Declared, Int?) in
            let source = Self.source(app: app)
            var replacements: [TypeRegistry.Replacement] = []
            var declared = Declared()
            var firstIndex: [TypeIdentifier: Int] = [:]
            for (index, declaration) in declarations.enumerated() {
                let id = declaration.identifier
                if let first = firstIndex.updateValue(index, forKey: id) {
                    throw ProtocolError(.invalidArgument, "types[\(index)].identifier: type '\(id)' is declared twice (first at types[\(first)])")
                }
                if state.current.source(of: id) != nil {
                    if state.current.declaration(for: id) == declaration { continue }
                    guard (state.apps[id] ?? state.current.app(owningFileOf: id)) == app else {
                        throw ProtocolError(.typeConflict, "types[\(index)].identifier: type '\(id)' is already declared by \(Self.owner(of: id, in: state))")
                    }
                    declared.replaced.append(id)
                } else {
                    declared.added.append(id)
                }
                replacements.append(.init(declaration, source: source, index: index))
            }
            guard !replacements.isEmpty else { return (declared, nil) }
            let result = state.current.replacing(replacements)
            if let error = result.errors.first?.error {
                throw ProtocolError(.invalidArgument, "\(error.field): \(error.message)")
            }
            state.current = result.registry
            // A replaced declaration of the app's own file is the app's now (a reload keeps it).
            for id in declared.added + declared.replaced { state.apps[id] = app }
            state.generation += 1
            return (declared, state.generation)
        }
        if let generation { changes.send(generation) }
        return declared
    }

    /// Who declared `id`, for a refusal: another app, the built-in types, or a file.
    private static func owner(of id: TypeIdentifier, in state: State) -> String {
        if let app = state.apps[id] { return "app '\(app)' (only that app may replace it)" }
        switch state.current.source(of: id) {
        case "built-in": return "the built-in types"
        case let path?:
            if let owner = state.current.app(owningFileOf: id) { return "\(path), the file of app '\(owner)' (only that app may replace it)" }
            return "\(path) (edit that file and reload pasteboardd to change it)"
        case nil: return "?"
        }
    }

    /// What a reload of `types.d` did to the apps' declarations.
    package struct Reload: Sendable, Equatable {
        /// An app's declaration that was dropped: a file now declares its type differently, or
        /// it no longer fits (a parent the files no longer declare).
        package struct Dropped: Sendable, Equatable {
            package var type: TypeIdentifier
            package var app: String
            package var reason: String
        }
        package var dropped: [Dropped] = []
        /// Types apps declared that a file now declares the same way: they are the file's now.
        package var adopted: [TypeIdentifier] = []
    }

    /// Puts `files` (built-in and `types.d` declarations, loaded without errors) in the place of
    /// the file declarations, keeping the apps' declarations after them in their order; an app's
    /// declaration of a type a file now declares gives way to the file's, unless that file is
    /// the app's own (it names the app: the app's declaration, made since, is the newer), as does
    /// one that no longer fits.
    func replaceFiles(with files: TypeRegistry) -> Reload {
        let (reload, generation) = state.withLock { state -> (Reload, Int) in
            var reload = Reload()
            var replacements: [TypeRegistry.Replacement] = []
            var apps: [TypeIdentifier: String] = [:]
            for declaration in state.current.declarationsInOrder {
                let id = declaration.identifier
                guard let app = state.apps[id] else { continue }
                if let file = files.source(of: id) {
                    if files.declaration(for: id) == declaration {
                        reload.adopted.append(id)
                        continue
                    }
                    guard files.app(owningFileOf: id) == app else {
                        reload.dropped.append(.init(type: id, app: app, reason: "\(file) declares it"))
                        continue
                    }
                }
                replacements.append(.init(declaration, source: Self.source(app: app), index: replacements.count))
                apps[id] = app
            }
            let result = files.replacing(replacements)
            for (position, error) in result.errors {
                let id = replacements[position].declaration.identifier
                guard let app = apps.removeValue(forKey: id) else { continue }
                reload.dropped.append(.init(type: id, app: app, reason: error.message))
            }
            state = State(files: files, current: result.registry, apps: apps, generation: state.generation + 1)
            return (reload, state.generation)
        }
        changes.send(generation)
        return reload
    }

    /// The declarations from index `start` on, in the registry's order, with where each came
    /// from, as many as fit in a frame of `frameLimit` bytes (see `TypeList.fitting`). Throws
    /// `invalid-argument` for a negative start.
    func typeList(from start: Int, frameLimit: Int) throws(ProtocolError) -> TypeList {
        guard start >= 0 else { throw ProtocolError(.invalidArgument, "'start' must be 0 or more, not \(start)") }
        let (registry, apps, generation) = state.withLock { ($0.current, $0.apps, $0.generation) }
        let declarations = registry.declarationsInOrder
        let infos = declarations[min(start, declarations.count)...].lazy.map { declaration in
            let id = declaration.identifier
            if let app = apps[id] {
                return TypeDeclarationInfo(declaration: declaration, source: TypeDeclarationInfo.app, app: app)
            }
            switch registry.source(of: id) {
            case "built-in"?, nil: return TypeDeclarationInfo(declaration: declaration, source: TypeDeclarationInfo.builtIn)
            case let path?: return TypeDeclarationInfo(declaration: declaration, source: TypeDeclarationInfo.file, file: path)
            }
        }
        return TypeList.fitting(infos, generation: generation, in: frameLimit)
    }
}

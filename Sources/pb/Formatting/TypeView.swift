#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Pasteboard
import PasteboardCLI
import PasteboardTypes

/// The registry `pb types` describes: the running daemon's when one answers (its built-in types,
/// the user's `types.d` as it last read them, and the types apps declared when they connected),
/// else this process's own (built-in and `types.d` as they are now).
struct TypeView {
    /// The declarations, with shared-mime-info for undeclared MIME types.
    var registry: TypeRegistry
    /// Where each declaration came from: `built-in`, a file's path, `declared by APP`.
    var origins: [TypeIdentifier: String]
    /// True when `registry` is the daemon's.
    var isDaemons: Bool

    /// The daemon's view, or, when no daemon answers (or it predates `types`), the local one
    /// with a note on stderr saying so. A socket of another user is an error, not a reason to
    /// fall back.
    static func load() throws -> TypeView {
        let declarations: [BlockingConnection.DaemonTypeDeclaration]
        do {
            declarations = try BlockingConnection(clientName: "pb").typeDeclarations()
        } catch PasteboardError.daemonUnreachable {
            return local(note: "no pasteboardd answers")
        } catch let error as PasteboardError where error.code == .unknownMessage {
            return local(note: "this pasteboardd does not list its types (an older release)")
        }
        let registry: TypeRegistry
        do {
            registry = try TypeRegistry(declarations: declarations.map(\.declaration))
        } catch {
            throw CLIError.failure("pasteboardd's type declarations do not make a registry: \(ErrorMessage.text(for: error))")
        }
        let environment = ProcessInfo.processInfo.environment
        return TypeView(
            registry: registry.usingSharedMIMEInfo(from: SharedMIMEInfo.databaseDirectories(environment: environment)),
            origins: Dictionary(declarations.map { ($0.declaration.identifier, $0.origin) }, uniquingKeysWith: { first, _ in first }),
            isDaemons: true)
    }

    /// This process's registry, after `note` and the problems of the user's declaration files
    /// on stderr.
    private static func local(note: String) -> TypeView {
        Output.printError("pb: note: \(note); showing the built-in types and types.d as they are now, without the types apps declare to pasteboardd")
        let (registry, errors) = TypeArguments.registry()
        for error in errors { Output.printError("pb: warning: \(error)") }
        var origins: [TypeIdentifier: String] = [:]
        for declaration in registry.declarationsInOrder {
            origins[declaration.identifier] = registry.source(of: declaration.identifier)
        }
        return TypeView(registry: registry, origins: origins, isDaemons: false)
    }
}

import PasteboardCLI
import ArgumentParser
import PasteboardTypes

/// `pb types`: the type registry, or one type's conformance.
struct Types: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "List the known types, or show one type's conformance chain, MIME types and extensions.",
        discussion: """
            User types are read from $XDG_CONFIG_HOME/pasteboard/types.d/*.json (see pasteboard-types(5)). \
            MIME types nobody declared take their conformance from shared-mime-info (/usr/share/mime) where installed.
            """
    )

    @Argument(help: ArgumentHelp("A type identifier or MIME type to describe.", valueName: "type"))
    var type: String?

    func run() throws {
        let (registry, errors) = TypeArguments.registry()
        for error in errors { Output.printError("pb: warning: \(error)") }
        guard let word = type else {
            for declaration in registry.declarations {
                let mime = declaration.mimeTypes.first ?? "-"
                let extensions = declaration.filenameExtensions.isEmpty ? "-" : declaration.filenameExtensions.joined(separator: ",")
                try Output.printLine("\(declaration.identifier)  \(mime)  \(extensions)")
            }
            return
        }
        guard let identifier = registry.resolve(word) else {
            throw CLIError.failure("unknown type '\(word)': not a declared type identifier or a MIME type")
        }
        let declaration = registry.declaration(for: identifier)
        try Output.printLine(identifier.rawValue + (identifier.dynamicMIMEType != nil ? "  (dynamic)" : ""))
        if let description = declaration?.description { try Output.printLine("  description: \(description)") }
        let chain = registry.supertypes(of: identifier)
        try Output.printLine("  conforms to: " + (chain.isEmpty ? "(nothing)" : chain.map(\.rawValue).joined(separator: ", ")))
        let mimeTypes = declaration?.mimeTypes ?? []
        try Output.printLine("  MIME types: " + (mimeTypes.isEmpty ? "-" : mimeTypes.joined(separator: ", ")))
        let extensions = declaration?.filenameExtensions ?? []
        try Output.printLine("  extensions: " + (extensions.isEmpty ? "-" : extensions.joined(separator: ", ")))
    }
}

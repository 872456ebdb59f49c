import PasteboardCLI
import ArgumentParser
import PasteboardDesktopTypes
import PasteboardTypes

/// `pb types`: the type registry, or one type's conformance.
struct Types: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "List the known types, or show one type's conformance chain, MIME types, extensions and source.",
        discussion: """
            With pasteboardd running, shows the daemon's types: the built-in ones, those of \
            $XDG_CONFIG_HOME/pasteboard/types.d/*.json as the daemon last read them (when it started, or on SIGHUP), \
            and those apps declared when they connected. Without one (a note on stderr says so), the built-in types \
            and types.d as they are now (see pasteboard-types(5)). \
            MIME types nobody declared take their conformance from shared-mime-info (/usr/share/mime) where installed. \
            --desktop prints how the desktop clipboard's offers map to types (pasteboard-types(5), DESKTOP CLIPBOARD).
            """
    )

    @Argument(help: ArgumentHelp("A type identifier or MIME type to describe.", valueName: "type"))
    var type: String?

    @Flag(help: ArgumentHelp(
        "Show how desktop clipboard offers (X11 targets, Wayland MIME types) map to types; with a type, what that offered name becomes."))
    var desktop = false

    func run() throws {
        let view = try TypeView.load()
        let registry = view.registry
        if desktop {
            try DesktopTypesListing(mapping: DesktopTypeMapping(registry: registry)).print(offered: type)
            return
        }
        guard let word = type else {
            for declaration in registry.declarations {
                let mime = declaration.mimeTypes.first ?? "-"
                let extensions = declaration.filenameExtensions.isEmpty ? "-" : declaration.filenameExtensions.joined(separator: ",")
                try Output.printLine("\(declaration.identifier)  \(mime)  \(extensions)")
            }
            return
        }
        guard let identifier = registry.resolve(word) else {
            throw CLIError.failure("unknown type '\(word)': not a declared type identifier or a MIME type" + Self.unreadHint(word, view: view))
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
        if let origin = view.origins[identifier] { try Output.printLine("  source: \(origin)") }
        let targets = DesktopTypeMapping(registry: registry).targets(for: identifier)
        try Output.printLine("  desktop targets: " + (targets.isEmpty ? "-" : targets.joined(separator: ", ")))
    }

    /// When the daemon does not know `word` but the user's types.d declares it now: how to make
    /// the daemon read it; else nothing.
    private static func unreadHint(_ word: String, view: TypeView) -> String {
        guard view.isDaemons else { return "" }
        let local = TypeArguments.registry().registry
        guard let type = local.resolve(word), let file = local.source(of: type), file != "built-in" else { return "" }
        return " to the running pasteboardd; \(file) declares it, which pasteboardd reads when it starts or on SIGHUP (systemctl --user reload pasteboardd, or kill -HUP the pid in the socket's .lock file, as README's Configuration shows)"
    }
}

import PasteboardCLI
import PasteboardTypes

/// How pb turns the type words users type into type identifiers.
enum TypeArguments {
    /// The registry: built-in types, the user's types.d declarations, and shared-mime-info for
    /// undeclared MIME types (read only if one turns up).
    static func registry() -> (registry: TypeRegistry, errors: [TypeDeclarationError]) {
        TypeRegistry.loadingFromProcessEnvironment()
    }

    /// The registry to resolve `words` with: the built-in types alone when they declare every
    /// word (`text` and `image` need none), so that `pb paste -t text` or `pb copy -t image/png`
    /// reads no file of `types.d`; else `registry()`. A user's file cannot declare a built-in
    /// identifier, and built-ins win a MIME type both declare, so the answer is the same.
    static func registry(resolving words: [String]) -> TypeRegistry {
        let builtIn = TypeRegistry.builtIn
        let declared = words.allSatisfy { word in
            word == "text" || word == "image" || builtIn.resolve(word).map { builtIn.source(of: $0) != nil } == true
        }
        return declared ? builtIn : registry().registry
    }

    /// A type for `pb copy -t`: a declared UTI or any MIME type. Undeclared UTIs are refused
    /// (most are typos); declare private types in types.d.
    static func copyType(_ word: String, registry: TypeRegistry) throws(CLIError) -> TypeIdentifier {
        if let type = registry.resolve(word) { return type }
        throw .usage("unknown type '\(word)': not a declared type identifier or a MIME type (see 'pb types')")
    }

    /// The accepted types for `pb paste -t`, in order: the generic word `text` means plain text,
    /// else any text; `image` means any image; a MIME type or UTI means itself. Undeclared but
    /// well-formed UTIs pass through (an app's private type).
    static func pasteTypes(_ words: [String], registry: TypeRegistry) throws(CLIError) -> [TypeIdentifier] {
        var result: [TypeIdentifier] = []
        for word in words {
            let expanded: [TypeIdentifier]
            switch word {
            case "text": expanded = [.plainText, .text]
            case "image": expanded = [.image]
            default:
                guard let type = registry.resolve(word) ?? TypeIdentifier.wellFormed(word) else {
                    throw .usage("unknown type '\(word)': not a type identifier, a MIME type, 'text' or 'image'")
                }
                expanded = [type]
            }
            for type in expanded where !result.contains(type) { result.append(type) }
        }
        return result
    }
}

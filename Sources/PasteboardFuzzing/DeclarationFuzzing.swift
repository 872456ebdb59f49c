#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PasteboardTypes

/// The declaration parser's invariants.
///
/// The input is a declaration file. Parsing returns declarations and `TypeDeclarationError`s that
/// name the file and say what is wrong. Every parsed declaration must survive a JSON round trip on its own
/// and as a file. Adding the declarations to the built-in registry must account for each one:
/// either the registry knows its identifier afterwards or an error names its `types[i]`; an
/// accepted declaration conforms to its parents. Sniffing the file's own bytes must not trap.
enum DeclarationFuzzing {
    /// The file name errors carry.
    static let source = "fuzz.json"

    /// A declaration file as the parser expects it, for re-encoding parsed declarations.
    struct File: Encodable {
        var types: [TypeDeclaration]
    }

    /// Checks `input` as a declaration file; returns what parsing and adding made of it.
    static func run(_ input: UnsafeRawBufferPointer) -> String {
        let parsed = TypeRegistry.parseDeclarationFile(Data(input), source: source)
        // The field may be empty: it is an unknown key's name, and `""` is a valid JSON key.
        for error in parsed.errors where error.file != source || error.message.isEmpty {
            invariantViolated(.declarations, "an error without its file or a message: '\(error)'")
        }
        for declaration in parsed.declarations {
            checkRoundTrip(declaration)
        }
        checkFileRoundTrip(parsed.declarations)
        let added = TypeRegistry.builtIn.adding(parsed.declarations, source: source)
        checkAccounted(parsed.declarations, in: added.registry, errors: added.errors)
        let sniffed = added.registry.sniff(prefix: UnsafeRawBufferPointer(input), isComplete: true, filename: source)
        return "\(parsed.declarations.count) declarations, \(parsed.errors.count) parse errors, "
            + "\(added.errors.count) registry errors, sniffed as \(sniffed)"
    }

    /// A declaration encodes and decodes to itself.
    static func checkRoundTrip(_ declaration: TypeDeclaration) {
        do {
            let json = try JSONEncoder().encode(declaration)
            let decoded = try JSONDecoder().decode(TypeDeclaration.self, from: json)
            if decoded != declaration {
                invariantViolated(.declarations, "'\(declaration.identifier)' changes in a round trip: \(declaration) became \(decoded)")
            }
        } catch {
            invariantViolated(.declarations, "'\(declaration.identifier)' does not round-trip: \(error)")
        }
    }

    /// The parsed declarations, written back as a file, parse again to the same declarations without errors.
    static func checkFileRoundTrip(_ declarations: [TypeDeclaration]) {
        let json: Data
        do {
            json = try JSONEncoder().encode(File(types: declarations))
        } catch {
            invariantViolated(.declarations, "parsed declarations do not encode as a file: \(error)")
        }
        let reparsed = TypeRegistry.parseDeclarationFile(json, source: source)
        if !reparsed.errors.isEmpty || reparsed.declarations != declarations {
            invariantViolated(
                .declarations,
                "parsed declarations written back parse to \(reparsed.declarations) with errors \(reparsed.errors)")
        }
    }

    /// Each declaration is in `registry` afterwards or has an error at `types[i]`; accepted ones conform to their parents.
    static func checkAccounted(_ declarations: [TypeDeclaration], in registry: TypeRegistry, errors: [TypeDeclarationError]) {
        for (index, declaration) in declarations.enumerated() {
            let field = "types[\(index)]"
            let reported = errors.contains { $0.field == field || $0.field.hasPrefix(field + ".") }
            guard registry.declaration(for: declaration.identifier) != nil else {
                if !reported {
                    invariantViolated(.declarations, "'\(declaration.identifier)' was neither added nor reported")
                }
                continue
            }
            if reported { continue }
            for parent in declaration.conformsTo where !registry.conforms(declaration.identifier, to: parent) {
                invariantViolated(.declarations, "accepted '\(declaration.identifier)' does not conform to its parent '\(parent)'")
            }
        }
    }
}

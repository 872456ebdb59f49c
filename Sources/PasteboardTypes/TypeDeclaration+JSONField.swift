package import PasteboardJSON

/// A declaration as a member of a protocol message (`declare`, `type-list`): read through the
/// declaration parser, so a message's declaration is checked as a file's is, and written with
/// the one JSON writer in the shape `encode(to:)` gives (empty lists and a nil description left
/// out; `TypeDeclarationJSONTests` holds the two to the same bytes). Neither is on the path of a
/// copy or paste.
///
/// Package API, not a conformance: the wire module makes `TypeDeclaration` a `JSONField` with
/// these, so an app that imports the library sees no JSON machinery of the package's own.
extension TypeDeclaration {
    package init(declarationJSON tape: JSONTape, at index: Int) throws(JSONError) {
        var problems: [DeclarationParser.Problem] = []
        guard let declaration = DeclarationParser.declaration(JSONValue(tape, at: index), path: "", problems: &problems).declaration else {
            throw JSONError(.invalid(DeclarationParser.describe(problems)))
        }
        self = declaration
    }

    package func writeDeclarationJSON(to writer: inout JSONObjectWriter) {
        let outer = writer.beginObject()
        writer.member("identifier", identifier.rawValue)
        writer.member("conformsTo", conformsTo.map(\.rawValue))
        if !mimeTypes.isEmpty { writer.member("mimeTypes", mimeTypes) }
        if !filenameExtensions.isEmpty { writer.member("filenameExtensions", filenameExtensions) }
        if !magic.isEmpty {
            writer.key("magic")
            writer.output.append(UInt8(ascii: "["))
            for index in magic.indices {
                if index > 0 { writer.output.append(UInt8(ascii: ",")) }
                let declaration = writer.beginObject()
                writer.member("offset", magic[index].offset)
                writer.member("bytes", magic[index].hexBytes)
                writer.endObject(declaration)
            }
            writer.output.append(UInt8(ascii: "]"))
        }
        writer.member("description", description)
        writer.endObject(outer)
    }
}

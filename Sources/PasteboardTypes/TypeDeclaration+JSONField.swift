import PasteboardJSON

/// A declaration as a member of a protocol message (`declare`, `type-list`): read through the
/// declaration parser, so a message's declaration is checked as a file's is, and written as
/// its Codable conformance writes it. Neither is on the path of a copy or paste.
extension TypeDeclaration: JSONField {
    public init(json tape: JSONTape, at index: Int) throws(JSONError) {
        var problems: [DeclarationParser.Problem] = []
        guard let declaration = DeclarationParser.declaration(JSONValue(tape, at: index), path: "", problems: &problems).declaration else {
            throw JSONError(.invalid(DeclarationParser.describe(problems)))
        }
        self = declaration
    }

    public func writeJSON(to writer: inout JSONObjectWriter) {
        // Encoding a declaration's strings and numbers cannot fail.
        writer.output += try! JSONBytesEncoder.encode(self)
    }
}

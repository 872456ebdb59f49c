public import PasteboardJSON
public import PasteboardTypes

/// Declarations travel in `declare` and `type-list` as members of their messages, read and
/// written as declaration files' are (`TypeDeclaration.init(declarationJSON:at:)`). The
/// conformance lives with the wire, not with the type, so it stays out of the library's public
/// surface: an app never meets `JSONTape`.
extension TypeDeclaration: JSONField {
    public init(json tape: JSONTape, at index: Int) throws(JSONError) {
        try self.init(declarationJSON: tape, at: index)
    }

    public func writeJSON(to writer: inout JSONObjectWriter) {
        writeDeclarationJSON(to: &writer)
    }
}

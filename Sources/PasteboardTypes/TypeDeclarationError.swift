/// A problem with one type declaration (or a whole declaration file), naming where it came from.
///
/// Its description reads `<file>: <field>: <message>`, e.g.
/// `types.d/10-cad.json: types[2].conformsTo[0]: unknown parent type 'public.nope'`.
public struct TypeDeclarationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the declaration came from: `"built-in"`, a file path, or an application's name.
    public var file: String
    /// The offending field, e.g. `"types[2].conformsTo[0]"`, or `"(file)"` when the file as a whole is bad.
    public var field: String
    /// What is wrong, e.g. `"unknown parent type 'public.nope'"`.
    public var message: String

    /// Creates an error for `field` of a declaration from `file`.
    public init(file: String, field: String, message: String) {
        self.file = file
        self.field = field
        self.message = message
    }

    /// `"<file>: <field>: <message>"`.
    public var description: String {
        "\(file): \(field): \(message)"
    }
}

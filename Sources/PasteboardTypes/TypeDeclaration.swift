#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The declaration of one type: its identifier, parents, tags and magic numbers.
///
/// In JSON (the format of `Config/types.json` and `types.d/*.json`):
/// `{"identifier": "com.example.cad", "conformsTo": ["public.data"], "mimeTypes": ["application/x-cad"],
///   "filenameExtensions": ["cad"], "magic": [{"offset": 0, "bytes": "43414431"}], "description": "CAD drawing"}`.
/// `identifier` and `conformsTo` are required; the other fields are optional. Unknown keys are errors.
public struct TypeDeclaration: Hashable, Sendable, Codable {
    /// The declared type.
    public var identifier: TypeIdentifier
    /// The types this one conforms to directly; several parents are allowed.
    public var conformsTo: [TypeIdentifier]
    /// MIME types of this type, the preferred one first.
    public var mimeTypes: [String]
    /// Filename extensions of this type, without dots.
    public var filenameExtensions: [String]
    /// Magic numbers identifying content of this type; any one pattern matching is a match.
    public var magic: [MagicPattern]
    /// A human-readable description.
    public var description: String?

    /// Creates a declaration.
    public init(
        identifier: TypeIdentifier,
        conformsTo: [TypeIdentifier] = [],
        mimeTypes: [String] = [],
        filenameExtensions: [String] = [],
        magic: [MagicPattern] = [],
        description: String? = nil
    ) {
        self.identifier = identifier
        self.conformsTo = conformsTo
        self.mimeTypes = mimeTypes
        self.filenameExtensions = filenameExtensions
        self.magic = magic
        self.description = description
    }

    /// Decodes a declaration, rejecting unknown keys, wrong types and invalid magic hex strings.
    public init(from decoder: any Decoder) throws {
        self = try DeclarationParser.decode(from: decoder) { DeclarationParser.declaration($0, path: "", problems: &$1).declaration }
    }

    /// Encodes the declaration; empty optional fields are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(conformsTo, forKey: .conformsTo)
        if !mimeTypes.isEmpty { try container.encode(mimeTypes, forKey: .mimeTypes) }
        if !filenameExtensions.isEmpty { try container.encode(filenameExtensions, forKey: .filenameExtensions) }
        if !magic.isEmpty { try container.encode(magic, forKey: .magic) }
        try container.encodeIfPresent(description, forKey: .description)
    }

    /// The JSON keys of a declaration.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case identifier, conformsTo, mimeTypes, filenameExtensions, magic, description
    }

    /// Problems a registry checks before accepting the declaration (identifier syntax, tag syntax,
    /// magic sanity); structural problems are found when parsing. `path` prefixes field names.
    func semanticProblems(path: String) -> [DeclarationParser.Problem] {
        var problems: [DeclarationParser.Problem] = []
        func field(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }
        if let problem = identifier.validationProblem {
            problems.append(.init(field: field("identifier"), message: problem))
        }
        for (index, parent) in conformsTo.enumerated() where parent == identifier {
            problems.append(.init(field: field("conformsTo[\(index)]"), message: "type '\(identifier)' cannot conform to itself"))
        }
        for (index, mime) in mimeTypes.enumerated() {
            if !MIMEType.isWellFormed(MIMEType.base(of: mime)), !MIMEType.isBareDesktopName(mime) {
                problems.append(.init(
                    field: field("mimeTypes[\(index)]"),
                    message: "invalid MIME type '\(mime)': expected 'type/subtype' (or a bare x- name such as x-kde-passwordManagerHint)"))
            }
        }
        for (index, ext) in filenameExtensions.enumerated() {
            if ext.isEmpty || ext.contains(".") || ext.contains("/") || ext.contains(" ") {
                problems.append(.init(
                    field: field("filenameExtensions[\(index)]"),
                    message: "invalid filename extension '\(ext)': give it without a dot, e.g. 'txt'"))
            }
        }
        for (index, pattern) in magic.enumerated() {
            if pattern.offset < 0 {
                problems.append(.init(field: field("magic[\(index)].offset"), message: "offset must not be negative"))
            }
            if pattern.bytes.isEmpty {
                problems.append(.init(field: field("magic[\(index)].bytes"), message: "magic bytes must not be empty"))
            }
        }
        return problems
    }
}

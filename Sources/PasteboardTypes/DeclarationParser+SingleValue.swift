internal import PasteboardJSON

/// One declaration, or one magic pattern, read on its own rather than in a file: as a Codable
/// value (an app's own encoding, `pb --json`) and as a member of a protocol message. Each says
/// what is wrong the same way, every problem on one line.
extension DeclarationParser {
    /// `problems` as one line: `field: message; field: message`.
    static func describe(_ problems: [Problem]) -> String {
        problems.map { "\($0.field): \($0.message)" }.joined(separator: "; ")
    }

    /// What `parse` makes of the value `decoder` holds; when it makes nothing, a
    /// `DecodingError.dataCorrupted` that names every problem.
    static func decode<Parsed>(from decoder: any Decoder, _ parse: (JSONValue, inout [Problem]) -> Parsed?) throws -> Parsed {
        let container = try decoder.singleValueContainer()
        var problems: [Problem] = []
        guard let parsed = parse(try container.decode(JSONValue.self), &problems) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: describe(problems))
        }
        return parsed
    }
}

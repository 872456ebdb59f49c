/// A JSON value as a tree, for what is checked field by field with its own error messages (type
/// declarations, see `DeclarationParser` in PasteboardTypes). Read through `JSONTape`, like
/// every other JSON.
public enum JSONValue: Hashable, Sendable, Decodable {
    case null
    case bool(Bool)
    /// A number as it was written (`-12`, `1.5e3`), so integers keep every digit.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Reads one JSON value (RFC 8259) from UTF-8 `bytes`, surrounded by nothing but whitespace.
    /// An object that gives a member name twice is refused.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        let result = Array(bytes).withUnsafeBytes { bytes in
            Result { () throws(JSONSyntaxError) in JSONValue(try JSONTape(bytes), at: 0) }
        }
        return try result.get()
    }

    /// The value at entry `index` of `tape`, with its contents.
    public init(_ tape: JSONTape, at index: Int) {
        let entry = tape.entries[index]
        switch entry.kind {
        case .null: self = .null
        case .true: self = .bool(true)
        case .false: self = .bool(false)
        case .number: self = .number(tape.numberText(at: index)!)
        case .string: self = .string(tape.string(at: index)!)
        case .array:
            var elements: [JSONValue] = []
            var element = index + 1
            while element < entry.end {
                elements.append(JSONValue(tape, at: element))
                element = tape.next(after: element)
            }
            self = .array(elements)
        case .object:
            var members: [String: JSONValue] = [:]
            var name = index + 1
            while name < entry.end {
                // The tape refused repeated names.
                members[tape.string(at: name)!] = JSONValue(tape, at: name + 1)
                name = tape.next(after: name + 1)
            }
            self = .object(members)
        }
    }

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            // An integer first, written as one: through a Double it would read back as `0.0`.
            self = .number(String(value))
        } else if let value = try? container.decode(Double.self) {
            self = .number("\(value)")
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// A short name of the value's JSON type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

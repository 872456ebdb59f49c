/// A parsed JSON value, used to check declaration files field by field with precise error
/// paths, and to decode protocol messages (see `JSONTreeDecoder` in PasteboardProtocol).
package enum JSONValue: Hashable, Sendable, Decodable {
    case null
    case bool(Bool)
    /// A number as it was written (`-12`, `1.5e3`), so integers keep every digit.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Decodes any JSON value.
    package init(from decoder: any Decoder) throws {
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
    package var typeName: String {
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

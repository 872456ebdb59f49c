/// Why a JSON document does not hold the value asked for, and where: the member names and
/// array indices leading to the value, so that an error names the field
/// (`field 'items.0.representations.1.type' has the wrong type`).
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The bytes are not JSON at all.
        case notJSON(JSONSyntaxError)
        /// A required member is absent (the path ends with its name).
        case missing
        /// The value is of another JSON type than the field's.
        case wrongType
        /// A required value is null.
        case null
        /// The value has the right JSON type but is not one the field takes; says why.
        case invalid(String)
    }

    public var reason: Reason
    /// Member names and array indices from the document's root to the value, outermost first.
    public var path: [String]

    public init(_ reason: Reason, path: [String] = []) {
        self.reason = reason
        self.path = path
    }

    /// This error, for a value found under `component` (a member name or an array index).
    /// Paths are built only as an error unwinds, never while reading succeeds.
    public func under(_ component: String) -> JSONError {
        JSONError(reason, path: [component] + path)
    }

    /// The path as the protocol's errors write it: `items.0.type`.
    public var field: String { path.joined(separator: ".") }

    public var description: String {
        switch reason {
        case .notJSON(let error): "not JSON: \(error)"
        case .missing: "missing field '\(field)'"
        case .wrongType: "field '\(field)' has the wrong type"
        case .null: "field '\(field)' is null"
        case .invalid(let why): "field '\(field)': \(why)"
        }
    }
}

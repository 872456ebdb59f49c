extension DecodingError {
    /// A short, single-line explanation of why decoding failed with `error`.
    static func reason(for error: any Error) -> String {
        func explain(_ message: String, _ context: Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            let text = message.hasSuffix(".") ? String(message.dropLast()) : message
            return path.isEmpty ? text : "\(text) (at \(path.drop { $0 == "." }))"
        }
        switch error as? DecodingError {
        case let .dataCorrupted(context)?: return explain(context.debugDescription, context)
        case let .keyNotFound(key, context)?: return explain("missing \"\(key.stringValue)\"", context)
        case let .typeMismatch(_, context)?, let .valueNotFound(_, context)?: return explain(context.debugDescription, context)
        default: return "\(error)"
        }
    }
}

extension TypeIdentifier {
    /// `string` as an identifier when it is well formed (the syntax declarations must follow,
    /// at most 255 bytes), declared or not; nil otherwise.
    ///
    /// Undeclared identifiers name private types (an app's own) and conform only to themselves.
    public static func wellFormed(_ string: String) -> TypeIdentifier? {
        let identifier = TypeIdentifier(string)
        guard string.utf8.count <= 255, identifier.validationProblem == nil else { return nil }
        return identifier
    }
}

extension TypeIdentifier {
    /// `string` as an identifier when it is well formed (1–255 ASCII letters, digits, '.', '-',
    /// '_', with at least one dot), declared or not; nil otherwise.
    ///
    /// Undeclared identifiers name private types (an app's own) and conform only to themselves.
    public static func wellFormed(_ string: String) -> TypeIdentifier? {
        guard !string.isEmpty, string.utf8.count <= 255, string.contains("."),
              string.utf8.allSatisfy({ byte in
                  (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                      || byte == 0x2E || byte == 0x5F || byte == 0x2D
              })
        else { return nil }
        return TypeIdentifier(string)
    }
}

extension Character {
    /// True for `0` to `9`.
    var isASCIIDigit: Bool { isASCII && isNumber }
}

/// Sizes in bytes as people write them in the configuration file and in options: a whole number,
/// optionally followed by `K`, `M` or `G` (1024, 1024², 1024³; either case), as in `64M`.
package enum ByteSize {
    /// The number of bytes `text` stands for; nil when it is not a size or does not fit an `Int`.
    package static func parse(_ text: String) -> Int? {
        guard let (digits, multiplier) = split(text), let number = Int(digits) else { return nil }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : bytes
    }

    /// Whether `text` is written as a size but stands for more bytes than an `Int` holds (so
    /// ``parse(_:)`` is nil for being too large, not for being no size at all).
    package static func isOverflowing(_ text: String) -> Bool {
        split(text) != nil && parse(text) == nil
    }

    /// The digits and the suffix's multiplier, when `text` has the form of a size.
    private static func split(_ text: String) -> (digits: Substring, multiplier: Int)? {
        var digits = Substring(text)
        var multiplier = 1
        if let last = digits.last, let power = suffixes.firstIndex(where: { $0 == Character(last.uppercased()) }) {
            multiplier = 1 << (10 * (power + 1))
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return (digits, multiplier)
    }

    /// `bytes` in the shortest form ``parse(_:)`` reads back exactly: `64M` for 67108864, `1000` for 1000.
    package static func format(_ bytes: Int) -> String {
        guard bytes != 0 else { return "0" }
        for (index, suffix) in suffixes.enumerated().reversed() {
            let unit = 1 << (10 * (index + 1))
            if bytes % unit == 0 { return "\(bytes / unit)\(suffix)" }
        }
        return "\(bytes)"
    }

    private static let suffixes: [Character] = ["K", "M", "G"]
}

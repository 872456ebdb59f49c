extension Canvas {
    /// Draws `text` in `FixedFont` with its cells' top-left corner at (`x`, `y`), in `color`,
    /// on one line; text wider than `maxWidth` pixels ends in "..." within it. Returns the
    /// width drawn. A title is a file name or the first line of a text: control characters
    /// and line breaks are drawn as spaces, characters the font lacks as `?`.
    @discardableResult
    public mutating func draw(text: String, x: Int, y: Int, color: UInt32, maxWidth: Int = .max) -> Int {
        let fitting = Self.fitting(text, maxWidth: maxWidth)
        for (column, character) in fitting.enumerated() {
            let left = x + column * FixedFont.width
            let rows = FixedFont.rows(of: character)
            for (row, bits) in rows.enumerated() where bits != 0 {
                for bit in 0..<FixedFont.width where bits & (1 << (FixedFont.width - 1 - bit)) != 0 {
                    set(x: left + bit, y: y + row, to: color)
                }
            }
        }
        return fitting.count * FixedFont.width
    }

    /// The characters of `text` drawn within `maxWidth` pixels: control characters as spaces,
    /// cut with "..." when it does not fit.
    static func fitting(_ text: String, maxWidth: Int) -> [Character] {
        let columns = max(0, maxWidth / FixedFont.width)
        var characters: [Character] = []
        for character in text {
            let isControl = character.unicodeScalars.allSatisfy { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }
            characters.append(isControl || character.isNewline ? " " : character)
            if characters.count > columns { break }
        }
        guard characters.count > columns else { return characters }
        guard columns > 3 else { return Array(repeating: ".", count: columns) }
        return Array(characters.prefix(columns - 3)) + [".", ".", "."]
    }
}

import PasteboardTypes

extension FileURL {
    /// A file name for an image titled `title` (no extension): slashes and control characters
    /// become '-', and an empty title becomes "image".
    static func fileName(forTitle title: String) -> String {
        let cleaned = String(title.unicodeScalars.map { $0 == "/" || $0.value < 0x20 ? "-" : Character($0) })
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "image" : cleaned
    }
}

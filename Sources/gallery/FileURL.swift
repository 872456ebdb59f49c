/// File URLs and file names for dragged images.
enum FileURL {
    /// `file://` followed by `path` with every byte outside RFC 3986's unreserved set and `/` percent-encoded.
    static func string(for path: String) -> String {
        var result = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                result += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return result
    }

    /// A file name for an image titled `title` (no extension): slashes and control characters
    /// become '-', and an empty title becomes "image".
    static func fileName(forTitle title: String) -> String {
        let cleaned = String(title.unicodeScalars.map { $0 == "/" || $0.value < 0x20 ? "-" : Character($0) })
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "image" : cleaned
    }
}

/// `file://` URLs of local paths, as dragged files carry them (`public.file-url`, the lines of
/// `text/uri-list`), and back.
public enum FileURL {
    /// `file://` followed by `path` with every byte outside RFC 3986's unreserved set and `/` percent-encoded.
    public static func string(for path: String) -> String {
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

    /// The path of a `file://` URL (its percent escapes undone), or nil for another URL or a
    /// malformed escape (a gallery's origin column shows paths, whichever gallery it came from).
    public static func path(from url: String) -> String? {
        var rest = Substring(url)
        guard rest.hasPrefix("file://") else { return nil }
        rest = rest.dropFirst("file://".count)
        if rest.hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
        guard rest.hasPrefix("/") else { return nil }
        var bytes: [UInt8] = []
        var utf8 = rest.utf8[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

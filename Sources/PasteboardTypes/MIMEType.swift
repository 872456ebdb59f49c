/// Normalisation of MIME type strings for lookups.
package enum MIMEType {
    /// Lowercased, whitespace removed around `;` and `=`, quotes dropped:
    /// `"Text/Plain; charset=\"UTF-8\""` becomes `"text/plain;charset=utf-8"`.
    package static func normalized(_ mime: String) -> String {
        if isNormalized(mime) { return mime }
        let parts = mime.split(separator: ";", omittingEmptySubsequences: true).map { part -> String in
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                $0.trimmingASCIIWhitespace().filter { $0 != "\"" }
            }
            return pieces.joined(separator: "=")
        }
        return parts.filter { !$0.isEmpty }.joined(separator: ";").lowercased()
    }

    /// Whether `normalized` would return `mime` unchanged: ASCII without upper case, spaces,
    /// quotes or empty `;` parts. (Most MIME types are written so; checking costs no allocation.)
    private static func isNormalized(_ mime: String) -> Bool {
        var previous = UInt8(ascii: ";")
        for byte in mime.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "\""), 0...0x20, 0x7F...: return false
            case UInt8(ascii: ";") where previous == UInt8(ascii: ";"): return false
            default: previous = byte
            }
        }
        return previous != UInt8(ascii: ";")
    }

    /// The lowercased `type/subtype` without parameters: `"Text/HTML; charset=utf-8"` becomes `"text/html"`.
    package static func base(of mime: String) -> String {
        let head = mime.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return head.trimmingASCIIWhitespace().lowercased()
    }

    /// Whether `name` is a bare desktop name used where MIME types go: `x-` and then letters,
    /// digits, `-`, `_` or `.`, no slash. Desktop clipboards offer such names beside MIME types
    /// (KDE's `x-kde-passwordManagerHint`), so a declaration may list one as its MIME type.
    package static func isBareDesktopName(_ name: some StringProtocol) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count > 2, bytes[0] | 0x20 == UInt8(ascii: "x"), bytes[1] == UInt8(ascii: "-") else { return false }
        return bytes.dropFirst(2).allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."): true
            default: false
            }
        }
    }

    /// Whether `base` (a MIME type without parameters) has the form `type/subtype`: one slash,
    /// both sides non-empty, no spaces.
    ///
    /// Allocates nothing: shared-mime-info's files have a thousand MIME types to check.
    static func isWellFormed(_ base: some StringProtocol) -> Bool {
        let bytes = base.utf8
        guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")), slash != bytes.startIndex else { return false }
        let subtype = bytes[bytes.index(after: slash)...]
        return !subtype.isEmpty && !subtype.contains(UInt8(ascii: "/")) && !bytes.contains(UInt8(ascii: " "))
    }
}

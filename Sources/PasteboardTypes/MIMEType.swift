/// Normalisation of MIME type strings for lookups.
enum MIMEType {
    /// Lowercased, whitespace removed around `;` and `=`, quotes dropped:
    /// `"Text/Plain; charset=\"UTF-8\""` becomes `"text/plain;charset=utf-8"`.
    static func normalized(_ mime: String) -> String {
        let parts = mime.split(separator: ";", omittingEmptySubsequences: true).map { part -> String in
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                $0.trimmingASCIIWhitespace().filter { $0 != "\"" }
            }
            return pieces.joined(separator: "=")
        }
        return parts.filter { !$0.isEmpty }.joined(separator: ";").lowercased()
    }

    /// The lowercased `type/subtype` without parameters: `"Text/HTML; charset=utf-8"` becomes `"text/html"`.
    static func base(of mime: String) -> String {
        let head = mime.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return head.trimmingASCIIWhitespace().lowercased()
    }
}

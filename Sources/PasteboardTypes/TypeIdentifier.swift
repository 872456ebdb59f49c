#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A uniform type identifier such as `public.png`, or a dynamic one such as `dyn.mime.text/x-foo`.
///
/// Identifiers are case-sensitive strings. They encode in JSON as a plain string.
public struct TypeIdentifier: RawRepresentable, Hashable, Comparable, Sendable, Codable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    /// The identifier string, e.g. `"public.png"`.
    public let rawValue: String

    /// Wraps `rawValue` without validating it.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps `rawValue` without validating it.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates an identifier from a string literal, e.g. `let t: TypeIdentifier = "public.png"`.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// Decodes the identifier from a plain JSON string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.rawValue = try container.decode(String.self)
    }

    /// Encodes the identifier as a plain JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Orders identifiers by their raw string.
    public static func < (lhs: TypeIdentifier, rhs: TypeIdentifier) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The raw identifier string.
    public var description: String { rawValue }

    /// The prefix shared by all dynamic identifiers made from MIME types.
    static let dynamicMIMEPrefix = "dyn.mime."

    /// The dynamic identifier for a MIME type nobody declared: `dyn.mime.<lowercased mime>`.
    ///
    /// The MIME type is trimmed and lowercased but otherwise kept as given; use
    /// ``TypeRegistry/type(forMIMEType:)`` to get a declared type when there is one.
    public static func dynamic(mimeType: String) -> TypeIdentifier {
        TypeIdentifier(dynamicMIMEPrefix + mimeType.trimmingASCIIWhitespace().lowercased())
    }

    /// The MIME type if this is a `dyn.mime.*` identifier, else `nil`.
    public var dynamicMIMEType: String? {
        guard rawValue.hasPrefix(Self.dynamicMIMEPrefix) else { return nil }
        let mime = rawValue.dropFirst(Self.dynamicMIMEPrefix.count)
        return mime.isEmpty ? nil : String(mime)
    }

    /// Why the identifier cannot be declared, or `nil` if it can: declarable identifiers use ASCII
    /// letters, digits, `.`, `-` and `_`, have at least one dot, no empty component, and are not `dyn.*`.
    var validationProblem: String? {
        if rawValue.isEmpty { return "identifier is empty" }
        for byte in rawValue.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"),
                UInt8(ascii: "_"):
                continue
            default:
                return "invalid identifier '\(rawValue)': only ASCII letters, digits, '.', '-' and '_' are allowed"
            }
        }
        let components = rawValue.split(separator: ".", omittingEmptySubsequences: false)
        if components.count < 2 {
            return "invalid identifier '\(rawValue)': it needs at least one dot, e.g. 'com.example.type'"
        }
        if components.contains(where: \.isEmpty) {
            return "invalid identifier '\(rawValue)': empty component between dots"
        }
        if components[0] == "dyn" {
            return "invalid identifier '\(rawValue)': 'dyn.' identifiers are reserved for dynamic types"
        }
        return nil
    }
}

extension TypeIdentifier {
    /// `public.item`: the root of the conformance graph.
    public static let item: TypeIdentifier = "public.item"
    /// `public.data`: any stream of bytes.
    public static let data: TypeIdentifier = "public.data"
    /// `public.content`: user-visible content (documents, media).
    public static let content: TypeIdentifier = "public.content"
    /// `public.text`: any text.
    public static let text: TypeIdentifier = "public.text"
    /// `public.plain-text`: unformatted text (`text/plain`).
    public static let plainText: TypeIdentifier = "public.plain-text"
    /// `public.utf8-plain-text`: UTF-8 plain text (`text/plain;charset=utf-8`).
    public static let utf8PlainText: TypeIdentifier = "public.utf8-plain-text"
    /// `public.utf16-plain-text`: UTF-16 plain text (`text/plain;charset=utf-16`).
    public static let utf16PlainText: TypeIdentifier = "public.utf16-plain-text"
    /// `public.html`: HTML (`text/html`).
    public static let html: TypeIdentifier = "public.html"
    /// `public.xml`: XML (`application/xml`).
    public static let xml: TypeIdentifier = "public.xml"
    /// `public.json`: JSON (`application/json`).
    public static let json: TypeIdentifier = "public.json"
    /// `public.url`: a list of URLs (`text/uri-list`).
    public static let url: TypeIdentifier = "public.url"
    /// `public.file-url`: a URL naming a local file.
    public static let fileURL: TypeIdentifier = "public.file-url"
    /// `public.image`: any image.
    public static let image: TypeIdentifier = "public.image"
    /// `public.png`: PNG image (`image/png`).
    public static let png: TypeIdentifier = "public.png"
    /// `public.jpeg`: JPEG image (`image/jpeg`).
    public static let jpeg: TypeIdentifier = "public.jpeg"
    /// `public.gif`: GIF image (`image/gif`).
    public static let gif: TypeIdentifier = "public.gif"
    /// `public.webp`: WebP image (`image/webp`).
    public static let webp: TypeIdentifier = "public.webp"
    /// `public.svg-image`: SVG image (`image/svg+xml`); also XML.
    public static let svgImage: TypeIdentifier = "public.svg-image"
    /// `public.pdf`: PDF document (`application/pdf`).
    public static let pdf: TypeIdentifier = "public.pdf"
    /// `public.zip-archive`: ZIP archive (`application/zip`).
    public static let zipArchive: TypeIdentifier = "public.zip-archive"
    /// `public.audio`: any audio.
    public static let audio: TypeIdentifier = "public.audio"
    /// `public.mp3`: MP3 audio (`audio/mpeg`).
    public static let mp3: TypeIdentifier = "public.mp3"
    /// `public.movie`: any video.
    public static let movie: TypeIdentifier = "public.movie"
    /// `public.mpeg-4`: MPEG-4 video (`video/mp4`).
    public static let mpeg4: TypeIdentifier = "public.mpeg-4"
}

extension StringProtocol {
    /// The string without leading and trailing ASCII spaces, tabs, CRs and LFs.
    package func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let start = firstIndex(where: { !isSpace($0) }),
            let end = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[start...end])
    }
}

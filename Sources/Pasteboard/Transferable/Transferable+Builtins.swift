#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
import Foundation
#endif
import PasteboardTypes

extension String: Transferable {
    /// `public.utf8-plain-text` both ways; import only: `public.utf16-plain-text` (BOM honoured) and
    /// any other `public.plain-text`, read as UTF-8. Invalid bytes fail with
    /// ``TransferError/decodingFailed(contentType:reason:)`` naming the first bad byte.
    public static var transferRepresentations: [TransferRepresentation<String>] {
        [
            .data(contentType: .utf8PlainText, exporting: { Data($0.utf8) },
                  importing: { try String(utf8: $0, contentType: .utf8PlainText) }),
            .data(contentType: .utf16PlainText, importing: { data in
                guard let text = String(data: data, encoding: .utf16) else {
                    throw TransferError.decodingFailed(contentType: .utf16PlainText, reason: "not valid UTF-16")
                }
                return text
            }),
            .data(contentType: .plainText, importing: { try String(utf8: $0, contentType: .plainText) }),
        ]
    }

    /// Strictly decodes UTF-8, reporting the offset of the first invalid byte.
    init(utf8 data: Data, contentType: TypeIdentifier) throws {
        if let text = String(validating: data, as: UTF8.self) {
            self = text
            return
        }
        var iterator = data.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while case .scalarValue(let scalar) = decoder.decode(&iterator) { offset += UTF8.width(scalar) }
        throw TransferError.decodingFailed(contentType: contentType, reason: "not valid UTF-8 (bad byte at offset \(offset))")
    }
}

extension Data: Transferable {
    /// `public.data` both ways: the bytes as they are. Imports any content conforming to `public.data`.
    public static var transferRepresentations: [TransferRepresentation<Data>] {
        [.data(contentType: .data, exporting: { $0 }, importing: { $0 })]
    }
}

extension URL: Transferable {
    /// `public.file-url` (export only, and only for file URLs), then `public.url` both ways.
    ///
    /// Both export the UTF-8 `absoluteString`. The file-URL representation uses
    /// ``TransferRepresentation/exportingCondition(_:)``, so a web URL lists only `public.url`.
    /// Import (of `public.url` and so `public.file-url`) reads `text/uri-list`: the first line that is
    /// neither empty nor a `#` comment, which must be an absolute URL.
    public static var transferRepresentations: [TransferRepresentation<URL>] {
        [
            .data(contentType: .fileURL, exporting: { Data($0.absoluteString.utf8) }).exportingCondition(\.isFileURL),
            .data(contentType: .url, exporting: { Data($0.absoluteString.utf8) }, importing: { try URL(uriList: $0) }),
        ]
    }

    /// The first URL of a `text/uri-list`.
    init(uriList data: Data) throws {
        let text = try String(utf8: data, contentType: .url)
        let lines = text.split(whereSeparator: \.isNewline).map { line in
            line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
        }.map { String($0) }
        guard let line = lines.first(where: { !$0.isEmpty && !$0.hasPrefix("#") }) else {
            throw TransferError.decodingFailed(contentType: .url, reason: "no URL in the list")
        }
        guard let url = URL(string: line), url.scheme != nil else {
            throw TransferError.decodingFailed(contentType: .url, reason: "'\(line)' is not an absolute URL")
        }
        self = url
    }
}

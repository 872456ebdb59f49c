#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
import Foundation
#endif
import PasteboardTypes

/// One way to convert an `Item` to or from a content type: bytes, a file, JSON, or another
/// ``Transferable`` type (a proxy).
///
/// Each constructor comes in three shapes — `exporting:importing:`, `exporting:` only and
/// `importing:` only — so a representation that can do neither cannot be written.
/// Conversions run only when an export closure or an import is actually performed.
public struct TransferRepresentation<Item: Sendable>: Sendable {
    /// The flat representations this one stands for: one, or all of a proxied type's.
    let leaves: [Leaf]

    /// One content type with an exporter, an importer, or both.
    struct Leaf: Sendable {
        var contentType: TypeIdentifier
        var exporter: Exporter?
        var importer: Importer?
        /// Whether the exporter applies to a given item; `nil` means always.
        var condition: (@Sendable (Item) -> Bool)?
    }

    /// Produces the content from an item.
    enum Exporter: Sendable {
        case data(@Sendable (Item) async throws -> Data)
        case file(@Sendable (Item) async throws -> URL)
    }

    /// Makes an item from the content.
    enum Importer: Sendable {
        case data(@Sendable (Data) async throws -> Item)
        case file(@Sendable (ReceivedFile) async throws -> Item)
    }

    /// A representation standing for `leaves`.
    init(leaves: [Leaf]) {
        self.leaves = leaves
    }

    /// A single representation of `contentType`.
    init(_ contentType: TypeIdentifier, _ exporter: Exporter?, _ importer: Importer?) {
        leaves = [Leaf(contentType: contentType, exporter: exporter, importer: importer)]
    }

    /// This representation, exported only for items where `condition` is true (like CoreTransferable's
    /// `exportingCondition`); importing is unaffected.
    ///
    /// ``Transferable/exportedRepresentations()`` evaluates the condition when it lists the
    /// representations, so it must be cheap. A condition on a representation that another type reaches
    /// through ``proxy(exporting:importing:)`` can only be checked after the proxy's conversion: such a
    /// representation is listed, and its export throws ``TransferError/notExportable(contentType:)``.
    public func exportingCondition(_ condition: @escaping @Sendable (Item) -> Bool) -> Self {
        Self(leaves: leaves.map { leaf in
            var leaf = leaf
            let previous = leaf.condition
            leaf.condition = { item in (previous?(item) ?? true) && condition(item) }
            return leaf
        })
    }
}

// MARK: - Bytes

extension TransferRepresentation {
    /// Bytes of `contentType`, both ways.
    public static func data(
        contentType: TypeIdentifier,
        exporting: @escaping @Sendable (Item) async throws -> Data,
        importing: @escaping @Sendable (Data) async throws -> Item
    ) -> Self {
        Self(contentType, .data(exporting), .data(importing))
    }

    /// Bytes of `contentType`, export only.
    public static func data(
        contentType: TypeIdentifier, exporting: @escaping @Sendable (Item) async throws -> Data
    ) -> Self {
        Self(contentType, .data(exporting), nil)
    }

    /// Bytes of `contentType`, import only. Content arriving as a file is read into memory first.
    public static func data(
        contentType: TypeIdentifier, importing: @escaping @Sendable (Data) async throws -> Item
    ) -> Self {
        Self(contentType, nil, .data(importing))
    }
}

// MARK: - Files

extension TransferRepresentation {
    /// A file of `contentType`, both ways.
    ///
    /// `exporting` returns the file URL of an existing file, which the caller reads but does not
    /// delete. `importing` gets a ``ReceivedFile`` valid until it returns; content arriving as bytes
    /// is written to a temporary file first.
    public static func file(
        contentType: TypeIdentifier,
        exporting: @escaping @Sendable (Item) async throws -> URL,
        importing: @escaping @Sendable (ReceivedFile) async throws -> Item
    ) -> Self {
        Self(contentType, .file(exporting), .file(importing))
    }

    /// A file of `contentType`, export only; see ``file(contentType:exporting:importing:)``.
    public static func file(
        contentType: TypeIdentifier, exporting: @escaping @Sendable (Item) async throws -> URL
    ) -> Self {
        Self(contentType, .file(exporting), nil)
    }

    /// A file of `contentType`, import only; see ``file(contentType:exporting:importing:)``.
    public static func file(
        contentType: TypeIdentifier, importing: @escaping @Sendable (ReceivedFile) async throws -> Item
    ) -> Self {
        Self(contentType, nil, .file(importing))
    }
}

// MARK: - Codable

extension TransferRepresentation where Item: Codable {
    /// The item as JSON, both ways: `encoder` exports and `decoder` imports.
    ///
    /// The defaults write what other programs read as JSON: sorted keys, and dates as ISO 8601
    /// text ("2026-11-25T19:20:04Z") rather than Foundation's default of seconds since 2001.
    /// Pass coders of your own for other strategies (they must not be changed afterwards:
    /// exports and imports use them from any task).
    ///
    /// Use a type of your own for `contentType` (e.g. `com.example.note`) unless any JSON should be
    /// offered to the decoder. Decoding errors become ``TransferError/decodingFailed(contentType:reason:)``.
    public static func codable(
        contentType: TypeIdentifier, encoder: JSONEncoder = .pasteboardDefault, decoder: JSONDecoder = .pasteboardDefault
    ) -> Self {
        .data(
            contentType: contentType,
            exporting: { item in
                try encoder.encode(item)
            },
            importing: { data in
                do {
                    return try decoder.decode(Item.self, from: data)
                } catch let error as DecodingError {
                    throw TransferError.decodingFailed(contentType: contentType, reason: error.summary)
                }
            })
    }
}

extension JSONEncoder {
    /// What `.codable` exports with unless told otherwise: sorted keys, ISO 8601 dates.
    public static var pasteboardDefault: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

extension JSONDecoder {
    /// What `.codable` imports with unless told otherwise: ISO 8601 dates, as `JSONEncoder.pasteboardDefault` writes them.
    public static var pasteboardDefault: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

extension DecodingError {
    /// A one-line account: what went wrong and where (a dotted coding path).
    var summary: String {
        func at(_ context: Context) -> String {
            context.codingPath.isEmpty ? "" : " at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        }
        switch self {
        case .keyNotFound(let key, let context): return "missing key '\(key.stringValue)'\(at(context))"
        case .typeMismatch(let type, let context): return "expected \(type)\(at(context))"
        case .valueNotFound(let type, let context): return "missing \(type) value\(at(context))"
        case .dataCorrupted(let context): return "\(context.debugDescription)\(at(context))"
        @unknown default: return "\(self)"
        }
    }
}

// MARK: - Proxies

extension TransferRepresentation {
    /// All of `Other`'s representations (proxies of proxies included), in `Other`'s order, reached by
    /// converting to and from `Other`.
    public static func proxy<Other: Transferable>(
        exporting: @escaping @Sendable (Item) async throws -> Other,
        importing: @escaping @Sendable (Other) async throws -> Item
    ) -> Self {
        proxy(exporting as (@Sendable (Item) async throws -> Other)?, importing)
    }

    /// `Other`'s export-capable representations, reached by converting to `Other`.
    public static func proxy<Other: Transferable>(
        exporting: @escaping @Sendable (Item) async throws -> Other
    ) -> Self {
        proxy(exporting, nil)
    }

    /// `Other`'s import-capable representations, reached by converting from `Other`.
    public static func proxy<Other: Transferable>(
        importing: @escaping @Sendable (Other) async throws -> Item
    ) -> Self {
        proxy(nil as (@Sendable (Item) async throws -> Other)?, importing)
    }

    /// `Other`'s leaves mapped through the given conversions; leaves left with nothing to do are dropped.
    private static func proxy<Other: Transferable>(
        _ exporting: (@Sendable (Item) async throws -> Other)?,
        _ importing: (@Sendable (Other) async throws -> Item)?
    ) -> Self {
        Self(leaves: Other.transferLeaves.compactMap { $0.proxied(exporting: exporting, importing: importing) })
    }
}

extension TransferRepresentation.Leaf {
    /// This leaf as seen from `Outer`, which converts to `Item` for export and from it for import.
    func proxied<Outer: Sendable>(
        exporting toItem: (@Sendable (Outer) async throws -> Item)?,
        importing fromItem: (@Sendable (Item) async throws -> Outer)?
    ) -> TransferRepresentation<Outer>.Leaf? {
        var exporter: TransferRepresentation<Outer>.Exporter?
        if let toItem, let inner = self.exporter {
            let (condition, type) = (self.condition, contentType)
            let convert: @Sendable (Outer) async throws -> Item = { outer in
                let item = try await toItem(outer)
                if let condition, !condition(item) { throw TransferError.notExportable(contentType: type) }
                return item
            }
            switch inner {
            case .data(let export): exporter = .data { try await export(convert($0)) }
            case .file(let export): exporter = .file { try await export(convert($0)) }
            }
        }
        var importer: TransferRepresentation<Outer>.Importer?
        if let fromItem, let inner = self.importer {
            switch inner {
            case .data(let load): importer = .data { try await fromItem(load($0)) }
            case .file(let load): importer = .file { try await fromItem(load($0)) }
            }
        }
        guard exporter != nil || importer != nil else { return nil }
        return .init(contentType: contentType, exporter: exporter, importer: importer)
    }
}

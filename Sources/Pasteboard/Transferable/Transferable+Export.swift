#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
import Foundation
#endif
import PasteboardTypes

/// One way a particular value can be exported: its content type and a deferred conversion.
public struct ExportedRepresentation: Sendable {
    /// The type of the content the conversion produces.
    public let contentType: TypeIdentifier
    /// How the content is produced.
    public let kind: Kind

    /// A deferred conversion; nothing is converted until the closure is called.
    public enum Kind: Sendable {
        /// Produces the content's bytes.
        case data(@Sendable () async throws -> Data)
        /// Produces the file URL of an existing file holding the content (read it, do not delete it).
        case file(@Sendable () async throws -> URL)
    }
}

extension Transferable {
    /// Every way this value can be exported, best first.
    ///
    /// Export-capable representations in ``Transferable/transferRepresentations`` order, proxies
    /// expanded, skipping those whose exporting condition is false for this value; when several give
    /// the same content type the first is kept. The closures capture the value and convert lazily.
    public func exportedRepresentations() -> [ExportedRepresentation] {
        var seen = Set<TypeIdentifier>()
        var result: [ExportedRepresentation] = []
        for leaf in Self.transferLeaves {
            guard let exporter = leaf.exporter, leaf.condition?(self) ?? true,
                seen.insert(leaf.contentType).inserted
            else { continue }
            switch exporter {
            case .data(let export): result.append(.init(contentType: leaf.contentType, kind: .data { try await export(self) }))
            case .file(let export): result.append(.init(contentType: leaf.contentType, kind: .file { try await export(self) }))
            }
        }
        return result
    }
}

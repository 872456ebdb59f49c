#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PasteboardTypes

extension Transferable {
    /// The content types this type can be created from, best first: import-capable representations
    /// in order, proxies expanded, duplicates removed. Types conforming to these are accepted too.
    public static var importableContentTypes: [TypeIdentifier] {
        var seen = Set<TypeIdentifier>()
        return transferLeaves.filter { $0.importer != nil && seen.insert($0.contentType).inserted }.map(\.contentType)
    }

    /// Creates a value from `content` declared as `contentType`.
    ///
    /// Uses the first import-capable representation (proxies expanded) whose content type
    /// `contentType` conforms to in `registry`. A file reaching a bytes importer is read into memory;
    /// bytes reaching a file importer are written to a temporary file in `/tmp` (named with the
    /// type's preferred filename extension) that is deleted when the importer returns.
    /// - Throws: ``TransferError/noImportableRepresentation(contentType:accepted:)`` when nothing
    ///   accepts `contentType`; otherwise whatever reading the file or the importer throws.
    public static func importing(
        _ content: ReceivedContent, contentType: TypeIdentifier, registry: TypeRegistry = .builtIn
    ) async throws -> Self {
        let leaf = transferLeaves.first { $0.importer != nil && registry.conforms(contentType, to: $0.contentType) }
        guard let importer = leaf?.importer else {
            throw TransferError.noImportableRepresentation(contentType: contentType, accepted: importableContentTypes)
        }
        switch (importer, content) {
        case (.data(let load), .data(let data)):
            return try await load(data)
        case (.file(let load), .file(let file)):
            return try await load(file)
        case (.data(let load), .file(let file)):
            return try await load(ImportFiles.contents(of: file.url))
        case (.file(let load), .data(let data)):
            let url = try ImportFiles.temporaryFile(holding: data, filenameExtension: registry.preferredFilenameExtension(for: contentType))
            defer { ImportFiles.delete(url) }
            return try await load(ReceivedFile(url: url, isOriginalFile: false))
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PasteboardSystem

/// A gallery JSON file on disk. Every modification goes through `update`, which serialises
/// concurrent editors (threads or processes) with an exclusive lock and writes atomically.
public struct GalleryFile: Sendable {
    /// Absolute path of the gallery JSON file.
    public let path: String

    /// Refers to the gallery at `path`; relative paths are made absolute against the current directory.
    public init(path: String) {
        self.path = LexicalPath.normalized(LexicalPath.absolute(path))
    }

    /// The directory containing the gallery file.
    public var directory: String { LexicalPath.directory(of: path) }

    /// Where image data is stored: "<directory>/<basename without .json>.images".
    public var imagesDirectory: String {
        var name = LexicalPath.lastComponent(of: path)
        if name.hasSuffix(".json") { name.removeLast(5) }
        return LexicalPath.join(directory, name + ".images")
    }

    var lockPath: String { path + ".lock" }

    /// The absolute path of an image's data file, or nil if it has none (e.g. a placeholder).
    public func absolutePath(of image: GalleryImage) -> String? {
        guard let file = image.file else { return nil }
        return LexicalPath.normalized(file.hasPrefix("/") ? file : LexicalPath.join(directory, file))
    }

    /// Reads the document without locking. A missing or blank file is an empty gallery;
    /// anything that does not decode is `.corrupt`.
    public func read() throws(GalleryError) -> GalleryDocument {
        guard let bytes = try POSIX.readFile(path), bytes.contains(where: { ![9, 10, 13, 32].contains($0) }) else {
            return GalleryDocument()
        }
        do {
            return try JSONDecoder().decode(GalleryDocument.self, from: Data(bytes))
        } catch {
            throw .corrupt(path: path, reason: DecodingError.reason(for: error))
        }
    }

    /// Locks "<path>.lock" exclusively, reads the current document, runs `body` on it and, if `body`
    /// returned and changed the document, writes it atomically (temp file, fsync, rename, directory fsync).
    /// Errors thrown by `body` are rethrown unchanged and nothing is written; I/O failures are `GalleryError`s.
    /// The lock is released however this returns.
    public func update<R>(_ body: (inout GalleryDocument) throws -> R) throws -> R {
        try FileLock.withExclusiveLock(at: lockPath) {
            let original = try read()
            var document = original
            let result = try body(&document)
            if document != original { try write(document) }
            return result
        }
    }

    /// Writes `document` as pretty-printed JSON with sorted keys and a trailing newline.
    func write(_ document: GalleryDocument) throws(GalleryError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do { data = try encoder.encode(document) } catch { throw .unwritable(path: path, reason: "\(error)") }
        try POSIX.writeAtomically(Array(data) + [10], to: path)
    }
}

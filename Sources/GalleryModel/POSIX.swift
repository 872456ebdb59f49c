#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PasteboardSystem

/// Thin wrappers over the Glibc file calls the gallery needs, reporting failures as `GalleryError`.
enum POSIX {
    /// The system's text for an errno value.
    static func errorMessage(_ code: Int32 = errno) -> String { SystemError.describe(code) }

    /// Reads up to `limit` bytes of the file; returns nil if it does not exist.
    static func readFile(_ path: String, limit: Int = .max) throws(GalleryError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw .unreadable(path: path, reason: errorMessage())
        }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while result.count < limit {
            let wanted = min(chunk.count, limit - result.count)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: errorMessage())
            }
            if count == 0 { break }
            result.append(contentsOf: chunk[..<count])
        }
        return result
    }

    /// Writes `bytes` to a temporary file beside `path` (created with the mode the umask gives, as
    /// any editor's file), fsyncs it, renames it over `path`, and fsyncs the directory.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(GalleryError) {
        let directory = LexicalPath.directory(of: path)
        let temporary = LexicalPath.join(directory, ".\(LexicalPath.lastComponent(of: path)).\(UUID().uuidString.lowercased()).tmp")
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw .unwritable(path: path, reason: errorMessage()) }
        var failure: GalleryError?
        if !writeAll(bytes, to: fd) || fsync(fd) != 0 { failure = .unwritable(path: path, reason: errorMessage()) }
        if close(fd) != 0, failure == nil { failure = .unwritable(path: path, reason: errorMessage()) }
        if failure == nil, rename(temporary, path) != 0 { failure = .unwritable(path: path, reason: errorMessage()) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        syncDirectory(directory)
    }

    /// Copies `source` byte for byte to `destination`, atomically.
    static func copyFile(from source: String, to destination: String) throws(GalleryError) {
        guard let bytes = try readFile(source) else { throw .unreadable(path: source, reason: errorMessage(ENOENT)) }
        try writeAtomically(bytes, to: destination)
    }

    /// Creates a directory unless it already exists, with the mode the umask gives (as mkdir(1)).
    static func makeDirectory(_ path: String) throws(GalleryError) {
        if mkdir(path, 0o777) != 0, errno != EEXIST { throw .unwritable(path: path, reason: errorMessage()) }
    }

    /// Flushes a directory's entries to disk (best effort: some file systems refuse).
    static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += count
        }
        return true
    }
}

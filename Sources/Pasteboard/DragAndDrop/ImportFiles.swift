#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PasteboardSystem

/// Converting between bytes and files during import, with POSIX calls (no FileManager).
enum ImportFiles {
    /// Writes `data` to a new file `/tmp/pasteboard-import-XXXXXX[.ext]` (mode 0600 while written,
    /// then `NewFileMode.regularFile`) and returns its URL.
    static func temporaryFile(holding data: Data, filenameExtension: String?) throws -> URL {
        let suffix = filenameExtension.map { "." + $0 } ?? ""
        var template = Array("/tmp/pasteboard-import-XXXXXX\(suffix)".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(suffix.utf8.count)) }
        guard fd >= 0 else { throw failure("/tmp", "cannot create a temporary file") }
        defer { close(fd) }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let written = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                if count < 0 { return false }
                offset += count
            }
            return true
        }
        guard written else {
            let error = failure(path, "cannot write")
            unlink(path)
            throw error
        }
        // Private while written; complete, an importer may move it to keep it, as its own file.
        fchmod(fd, NewFileMode.regularFile)
        return URL(fileURLWithPath: path)
    }

    /// The whole content of the file at `url`.
    static func contents(of url: URL) throws -> Data {
        let path = url.path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path, "cannot open") }
        defer { close(fd) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw failure(path, "cannot read") }
            if count == 0 { return data }
            data.append(contentsOf: chunk[..<count])
        }
    }

    /// Deletes the file at `url`, ignoring failure (an importer may have moved it away).
    static func delete(_ url: URL) {
        unlink(url.path)
    }

    /// A ``TransferError/fileOperationFailed(path:reason:)`` for `action` on `path`, with `errno`'s text.
    private static func failure(_ path: String, _ action: String) -> TransferError {
        .fileOperationFailed(path: path, reason: "\(action): \(SystemError.current)")
    }
}

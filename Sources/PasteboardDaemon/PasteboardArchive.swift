#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
import NIOCore
import PasteboardProtocol
import PasteboardTypes

/// One named pasteboard on disk: `<name>.pasteboard` in the state directory.
///
/// Layout: the magic `PBSTATE1`, a 4-byte big-endian header length, the header (JSON: name,
/// change count, items and their representations), the bytes of every eager representation in
/// order, and a 4-byte big-endian CRC-32 of everything before it. A file is written to a
/// temporary name, synced, and renamed into place, so a crash leaves the old file or the new
/// one, never a mix; a file that fails any check on reading is reported, not served.
/// Sensitive items are never written.
enum PasteboardArchive {
    static let fileExtension = ".pasteboard"
    private static let magic = Array("PBSTATE1".utf8)

    /// A failure to write or read an archive, for logs and error messages.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private struct Header: Codable {
        var name: String
        var changeCount: Int
        var items: [Item]
    }

    private struct Item: Codable {
        var suggestedName: String?
        var visibility: ItemVisibility?
        var writerPID: Int32?
        var representations: [Representation]
    }

    private struct Representation: Codable {
        enum Kind: String, Codable { case data, file, promise, unavailable }
        var type: String
        var kind: Kind
        var size: Int?
        var path: String?
        var openInPlace: Bool?
        /// For a promise: its source, for the message once it is unavailable; for unavailable: why.
        var note: String?
    }

    /// The archive file of pasteboard `name` in `directory`.
    static func path(of name: String, in directory: String) -> String {
        directory + "/" + name + fileExtension
    }

    /// Writes `pasteboard` durably into `directory`: temporary file, fsync, rename, fsync of the directory.
    static func write(_ pasteboard: NamedPasteboard, to directory: String) throws(Failure) {
        var chunks: [ByteBuffer] = []
        // Sensitive items stay in memory only: after a restart the pasteboard holds the others.
        let header = Header(name: pasteboard.name, changeCount: pasteboard.changeCount, items: pasteboard.items.filter { !$0.isSensitive }.map { item in
            Item(
                suggestedName: item.suggestedName, visibility: item.visibility == .all ? nil : item.visibility,
                writerPID: item.writerPID,
                representations: item.representations.map { representation in
                    var archived = Representation(type: representation.type.rawValue, kind: .data, size: representation.size)
                    switch representation.content {
                    case .data(let data):
                        chunks += data
                    case .file(let path, let openInPlace):
                        archived.kind = .file
                        archived.path = path
                        archived.openInPlace = openInPlace ? true : nil
                    case .promise(let promise):
                        archived.kind = .promise
                        archived.note = promise.owner.description
                    case .unavailable(let reason):
                        archived.kind = .unavailable
                        archived.note = reason
                    }
                    return archived
                }
            )
        })
        // Encoding plain Codable structs of strings and integers cannot fail.
        let headerBytes = try! JSONBytesEncoder.encode(header)
        var prefix = magic
        prefix += bigEndian(UInt32(headerBytes.count))
        prefix += headerBytes

        let target = path(of: pasteboard.name, in: directory)
        let temporary = target + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("create", temporary) }
        var crc: UInt32 = 0
        var failedErrno: Int32?
        func emit(_ bytes: UnsafeRawBufferPointer, checksummed: Bool = true) {
            guard failedErrno == nil else { return }
            if checksummed { crc = pasteboard_crc32(crc, bytes.baseAddress, bytes.count) }
            failedErrno = writeAll(fd, bytes)
        }
        prefix.withUnsafeBytes { emit($0) }
        for chunk in chunks { chunk.withUnsafeReadableBytes { emit($0) } }
        bigEndian(crc).withUnsafeBytes { emit($0, checksummed: false) }
        if failedErrno == nil, fsync(fd) != 0 { failedErrno = errno }
        if close(fd) != 0, failedErrno == nil { failedErrno = errno }
        if let failedErrno {
            unlink(temporary)
            throw Failure(description: "cannot write \(temporary): \(String(cString: strerror(failedErrno)))")
        }
        guard rename(temporary, target) == 0 else {
            let error = failure("rename into place", target)
            unlink(temporary)
            throw error
        }
        syncDirectory(directory)
    }

    /// Reads the archive at `path`; throws when it is truncated, corrupt or not an archive.
    static func read(_ path: String, registry: TypeRegistry) throws(Failure) -> NamedPasteboard {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open", path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("stat", path) }
        let size = Int(info.st_size)
        guard size >= magic.count + 8 else { throw Failure(description: "\(path) is truncated (\(size) bytes)") }
        var buffer = ByteBufferAllocator().buffer(capacity: size)
        let readCount = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: size) { bytes in
            var offset = 0
            while offset < size {
                let count = Glibc.read(fd, bytes.baseAddress! + offset, size - offset)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                offset += count
            }
            return offset
        }
        guard readCount == size else { throw Failure(description: "\(path) could not be read whole") }
        let stored = buffer.getInteger(at: size - 4, as: UInt32.self)!
        let computed = buffer.withUnsafeReadableBytes { pasteboard_crc32(0, $0.baseAddress, size - 4) }
        guard stored == computed else { throw Failure(description: "\(path) fails its checksum (truncated or corrupt)") }
        guard buffer.readBytes(length: magic.count) == magic, let headerLength = buffer.readInteger(as: UInt32.self),
              Int(headerLength) <= buffer.readableBytes - 4, let headerBytes = buffer.readBytes(length: Int(headerLength))
        else { throw Failure(description: "\(path) is not a pasteboard archive") }
        let header: Header
        do {
            header = try JSONTreeDecoder.decode(Header.self, from: headerBytes)
        } catch {
            throw Failure(description: "\(path) has an unreadable header: \(error)")
        }
        guard PasteboardName.validationFailure(header.name) == nil, path.hasSuffix("/" + header.name + fileExtension) else {
            throw Failure(description: "\(path) holds pasteboard '\(header.name)', which does not match its file name")
        }
        var items: [StoredItem] = []
        for item in header.items {
            var representations: [StoredRepresentation] = []
            for archived in item.representations {
                guard let type = registry.resolve(archived.type) ?? TypeIdentifier.wellFormed(archived.type) else {
                    throw Failure(description: "\(path) names an invalid type '\(archived.type)'")
                }
                switch archived.kind {
                case .data:
                    guard let size = archived.size, size >= 0, size <= buffer.readableBytes - 4,
                          let bytes = buffer.readSlice(length: size)
                    else { throw Failure(description: "\(path) is shorter than its header says") }
                    representations.append(StoredRepresentation(type: type, chunks: size == 0 ? [] : [bytes]))
                case .file:
                    guard let file = archived.path else { throw Failure(description: "\(path) has a file representation without a path") }
                    representations.append(StoredRepresentation(type: type, content: .file(path: file, openInPlace: archived.openInPlace ?? false), size: archived.size))
                case .promise:
                    let source = archived.note ?? "its source"
                    representations.append(StoredRepresentation(
                        type: type,
                        content: .unavailable("pasteboardd restarted, and \(source), which promised \(type), has not offered it again"),
                        size: archived.size
                    ))
                case .unavailable:
                    representations.append(StoredRepresentation(type: type, content: .unavailable(archived.note ?? "unavailable"), size: archived.size))
                }
            }
            guard !representations.isEmpty else { throw Failure(description: "\(path) has an item without representations") }
            items.append(StoredItem(
                representations: representations, suggestedName: item.suggestedName,
                visibility: item.visibility ?? .all, writerPID: item.writerPID
            ))
        }
        guard buffer.readableBytes == 4 else { throw Failure(description: "\(path) is longer than its header says") }
        return NamedPasteboard(name: header.name, changeCount: header.changeCount, items: items)
    }

    /// Writes all of `bytes`; returns errno on failure.
    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }

    private static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }

    private static func failure(_ operation: String, _ path: String) -> Failure {
        Failure(description: "cannot \(operation) \(path): \(String(cString: strerror(errno)))")
    }
}

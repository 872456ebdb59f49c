#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The magic patterns of the user's `types.d`, kept in one cache file, so that `pb copy` from
/// standard input, which sniffs its content, reads that small file instead of every declaration
/// file: a declaration without magic cannot change what content sniffs as, and the patterns of
/// those with magic are all sniffing needs (`MagicTable`, in the registry's order).
///
/// Why: with thousands of one-type files, reading and parsing them all cost each `pb copy` tens
/// to hundreds of milliseconds for declarations it never used.
///
/// The cache names the listing it was made from (each `.json` file's name, size, modification
/// time and inode, in name order): when the directory's listing differs, the cache is not used
/// and the next full load writes it again. It is `$XDG_CACHE_HOME/pasteboard/types-magic.cache`
/// (default `~/.cache`), read only when it is a regular file of this user that nobody else may
/// write, and written whole (a temporary file renamed over it) in a directory of the user's own.
/// A cache that cannot be read or written costs only the full load.
enum UserMagicCache {
    /// The cache's path for the environment's `XDG_CACHE_HOME` or `HOME`.
    static func path(value: (String) -> String?) -> String? {
        XDGBaseDirectory.home("XDG_CACHE_HOME", fallback: ".cache", value: value)
            .map { XDGBaseDirectory.joined($0, "pasteboard/types-magic.cache") }
    }

    /// The largest cache read: far beyond the patterns of any real `types.d`.
    static let maximumBytes = 8 << 20

    /// The listing of `directory`'s declaration files, one line each; nil when it cannot be read.
    static func listing(of directory: String) -> String? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        let names = DirectoryEntries.names(of: stream).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
        var lines: [String] = []
        lines.reserveCapacity(names.count)
        let descriptor = dirfd(stream)
        for name in names {
            var info = stat()
            guard fstatat(descriptor, name, &info, 0) == 0 else { return nil }
            lines.append("\(name)\t\(info.st_size)\t\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)\t\(info.st_ino)")
        }
        return lines.joined(separator: "\n")
    }

    /// The declarations with magic that the cache at `path` holds for `listing`; nil when there
    /// is no usable cache for it.
    static func declarations(at path: String, for listing: String) -> [TypeDeclaration]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
              info.st_mode & 0o022 == 0, info.st_size <= maximumBytes else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return nil }
            count += got
        }
        // The listing, a line of its own with its length first, then the declarations as a file's.
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")),
              let length = Int(String(decoding: bytes[..<newline], as: UTF8.self)),
              length >= 0, newline + 1 + length < bytes.count,
              bytes[(newline + 1)..<(newline + 1 + length)].elementsEqual(listing.utf8) else { return nil }
        let parsed = DeclarationParser.file(Data(bytes[(newline + 1 + length)...]))
        guard parsed.problems.isEmpty else { return nil }
        return parsed.entries.map(\.declaration)
    }

    /// Writes the cache at `path` for `listing`: the declarations of `registry` from outside
    /// the built-ins that have magic, in its order. Quietly does nothing when it cannot.
    static func store(_ registry: TypeRegistry, for listing: String, at path: String) {
        let magic = registry.declarationsInOrder.filter { !$0.magic.isEmpty && registry.source(of: $0.identifier) != "built-in" }
        struct File: Encodable { var types: [TypeDeclaration] }
        guard let json = try? JSONEncoder().encode(File(types: magic)) else { return }
        let listingBytes = Array(listing.utf8)
        let contents = Array("\(listingBytes.count)\n".utf8) + listingBytes + Array(json)
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        guard makeOwnDirectory(directory) else { return }
        let temporary = "\(directory)/.types-magic.\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return }
        var written = 0
        while written < contents.count {
            let count = contents.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        close(descriptor)
        if written != contents.count || rename(temporary, path) != 0 { unlink(temporary) }
    }

    /// `directory` and its parent made where missing (mode 0700); true when `directory` is
    /// then a directory of this user's that nobody else may write.
    private static func makeOwnDirectory(_ directory: String) -> Bool {
        let parent = String(directory[..<(directory.lastIndex(of: "/") ?? directory.endIndex)])
        for path in [parent, directory] where !path.isEmpty {
            if mkdir(path, 0o700) != 0, errno != EEXIST { return false }
        }
        var info = stat()
        return lstat(directory, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR && info.st_uid == geteuid() && info.st_mode & 0o022 == 0
    }
}

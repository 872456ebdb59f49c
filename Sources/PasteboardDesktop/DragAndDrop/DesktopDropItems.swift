#if canImport(Glibc)
import Glibc
#endif
public import Pasteboard
public import PasteboardTypes

/// What a drop from a desktop application becomes in the session the bridge lifts for it.
///
/// Files (the lines of a `text/uri-list` that are `file://` URLs of local paths) become one
/// item each: a file representation of the type its first bytes and name say (the daemon
/// reads the file when the destination loads it), then its URL, named by its file name. Any
/// other drop becomes one item with the application's offered types as promised
/// representations, read from it when the destination loads them.
public enum DesktopDropItems {
    /// The local paths a `text/uri-list` names, in order: comments (`#`), blank lines, other
    /// schemes and malformed escapes are skipped.
    public static func filePaths(inURIList bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self)
            .split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map { $0.trimmingCharacters(in: " \t\r") }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .compactMap(FileURL.path(from:))
    }

    /// One item per regular file of `paths` (others are skipped), typed by `registry`.
    public static func fileItems(_ paths: [String], registry: TypeRegistry) -> [ItemProvider] {
        paths.compactMap { path in
            guard let prefix = regularFilePrefix(path) else { return nil }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            var item = ItemProvider(suggestedName: name)
            item.registerFileRepresentation(for: registry.sniff(prefix: prefix, isComplete: prefix.count < prefixLength, filename: name), at: path)
            item.registerData(Array(FileURL.string(for: path).utf8), for: .fileURL)
            return item
        }
    }

    /// How many first bytes of a file are sniffed.
    static let prefixLength = 4096

    /// The first bytes of `path` when it is a regular file we can read, nil otherwise.
    static func regularFilePrefix(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var prefix = [UInt8](repeating: 0, count: prefixLength)
        let got = prefix.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard got >= 0 else { return nil }
        return Array(prefix.prefix(got))
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, set.unicodeScalars.contains(first) { scalars = scalars.dropFirst() }
        while let last = scalars.last, set.unicodeScalars.contains(last) { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}

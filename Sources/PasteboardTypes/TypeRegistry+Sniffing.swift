#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Guessing a type from content.
extension TypeRegistry {
    /// Sniffs content: magic patterns first, then the filename's extension, then valid UTF-8 -> public.utf8-plain-text, else public.data.
    ///
    /// `prefix` is the first bytes of the content (at least 512 when available); `isComplete` says
    /// whether it is all of it. When it is not, a multibyte UTF-8 sequence cut off at the very end
    /// still counts as text. Content with a NUL byte is never text. Longer magic patterns are tried
    /// first. Empty content is UTF-8 plain text. O(n) in the prefix length.
    public func sniff(prefix: some Collection<UInt8>, isComplete: Bool, filename: String?) -> TypeIdentifier {
        if let result = prefix.withContiguousStorageIfAvailable({ sniff(buffer: $0, isComplete: isComplete, filename: filename) }) {
            return result
        }
        return Array(prefix).withUnsafeBufferPointer { sniff(buffer: $0, isComplete: isComplete, filename: filename) }
    }

    /// The type `loadingFromProcessEnvironment()`'s registry sniffs for content without a file
    /// name, such as standard input. When the user declares no types, only the built-ins'
    /// magic patterns can match, and the registry is not built: `pb copy` from stdin needs
    /// nothing else of it.
    ///
    /// When they do, the magic patterns of their declarations come from `UserMagicCache`
    /// while `types.d` is as it was when the cache was written: the files are read and parsed
    /// only after they changed (and the cache is written again then).
    public static func sniffWithProcessEnvironment(prefix: some Collection<UInt8>, isComplete: Bool) -> TypeIdentifier {
        guard processUserDeclaresTypes() else { return sniff(prefix: prefix, isComplete: isComplete, table: .builtIn) }
        return sniff(prefix: prefix, isComplete: isComplete) { getenv($0).map { String(cString: $0) } }
    }

    /// `sniffWithProcessEnvironment` for an environment whose values `value` gives, the user
    /// declaring types: the magic patterns from `UserMagicCache` when it is up to date, else
    /// from loading the files (and writing the cache).
    static func sniff(prefix: some Collection<UInt8>, isComplete: Bool, environment value: (String) -> String?) -> TypeIdentifier {
        var environment: [String: String] = [:]
        for name in XDGBaseDirectory.variables { environment[name] = value(name) }
        guard let directory = userTypesDirectory(value: value), let listing = UserMagicCache.listing(of: directory),
              let cache = UserMagicCache.path(value: value) else {
            return loading(environment: environment).registry.sniff(prefix: prefix, isComplete: isComplete, filename: nil)
        }
        if let magic = UserMagicCache.declarations(at: cache, for: listing) {
            return sniff(prefix: prefix, isComplete: isComplete, table: MagicTable(BuiltInTypes.declarations + magic))
        }
        let registry = loading(environment: environment).registry
        UserMagicCache.store(registry, for: listing, at: cache)
        return registry.sniff(prefix: prefix, isComplete: isComplete, filename: nil)
    }

    /// Content without a file name sniffed with `table`: its patterns, then text or data.
    private static func sniff(prefix: some Collection<UInt8>, isComplete: Bool, table: MagicTable) -> TypeIdentifier {
        let sniff = { (buffer: UnsafeBufferPointer<UInt8>) in
            table.type(matching: buffer) ?? textOrData(buffer, isComplete: isComplete)
        }
        return prefix.withContiguousStorageIfAvailable(sniff) ?? Array(prefix).withUnsafeBufferPointer(sniff)
    }

    /// `sniff(prefix:isComplete:filename:)` on contiguous bytes.
    private func sniff(buffer: UnsafeBufferPointer<UInt8>, isComplete: Bool, filename: String?) -> TypeIdentifier {
        if let type = magicTable.type(matching: buffer) { return type }
        if let filename, let ext = Self.filenameExtension(of: filename), let type = type(forFilenameExtension: ext) {
            return type
        }
        return Self.textOrData(buffer, isComplete: isComplete)
    }

    /// UTF-8 plain text when `bytes` is text, else data: the last step of sniffing.
    private static func textOrData(_ bytes: UnsafeBufferPointer<UInt8>, isComplete: Bool) -> TypeIdentifier {
        isText(bytes, isComplete: isComplete) ? .utf8PlainText : .data
    }

    /// The extension of the last path component (`"a/b.tar.gz"` -> `"gz"`); `nil` for `".bashrc"` or `"README"`.
    static func filenameExtension(of filename: String) -> String? {
        let name = filename.split(separator: "/", omittingEmptySubsequences: true).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...]
        return ext.isEmpty ? nil : String(ext)
    }

    /// Whether `bytes` is NUL-free, valid UTF-8 (allowing a cut-off final sequence when `isComplete` is false).
    static func isText(_ bytes: UnsafeBufferPointer<UInt8>, isComplete: Bool) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                if lead == 0 { return false }
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return false
            }
            for offset in 1..<length {
                guard index + offset < count else {
                    // Cut off at the end of the prefix: fine only if more content follows.
                    return !isComplete
                }
                let byte = bytes[index + offset]
                let (min, max) = offset == 1 ? (low, high) : (0x80, 0xBF)
                guard byte >= min, byte <= max else { return false }
            }
            index += length
        }
        return true
    }
}

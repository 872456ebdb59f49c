#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reading the names in a directory: the daemon's state and history directories, the user's
/// type declarations.
package enum DirectoryEntries {
    /// The names left in the open directory `stream` (`.` and `..` included), in the order
    /// `readdir` gives them.
    package static func names(of stream: OpaquePointer) -> [String] {
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            names.append(name)
        }
        return names
    }
}

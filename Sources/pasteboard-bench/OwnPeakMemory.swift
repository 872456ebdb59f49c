#if canImport(Glibc)
import Glibc
#endif

/// A command's own peak resident size, measured by GNU time (`/usr/bin/time -f %M`).
///
/// Not from the bench's own `wait4`: a child the bench spawns starts its `ru_maxrss` from the
/// bench's peak (posix_spawn shares the bench's memory until the exec, and the kernel carries
/// the old memory's high-water mark over an exec). After the large scenario had loaded 256 MiB,
/// every child so "peaked" at 341 MiB, and in a copy-only run the figure was the bench's own
/// 15 MiB, not pb's 8 to 10. GNU time forks its child from its own small image, so what it
/// reports is the larger of the command's peak and time's own size (a megabyte or two).
enum OwnPeakMemory {
    /// GNU time: Debian's `time` package.
    static let tool = "/usr/bin/time"

    /// Whether GNU time is installed.
    static var isAvailable: Bool { access(tool, X_OK) == 0 }

    /// `command` run under GNU time, which writes its peak (in KiB) to `file`.
    static func measuring(_ command: [String], into file: String) -> [String] {
        [tool, "-f", "%M", "-o", file] + command
    }

    /// The peak in bytes that a run of `measuring(_:into:)` wrote to `file`; nil when the file
    /// does not hold a count of KiB within range.
    static func read(_ file: String) -> Int? {
        guard let stream = fopen(file, "r") else { return nil }
        defer { fclose(stream) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = fread(&bytes, 1, bytes.count, stream)
        let text = String(decoding: bytes[..<count], as: UTF8.self).split(separator: "\n").last ?? ""
        guard let kibibytes = Int(text), kibibytes > 0, kibibytes <= Int.max >> 10 else { return nil }
        return kibibytes << 10
    }
}

#if canImport(Glibc)
package import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The permissions of a file this package creates for its user (a paste's output, a dropped
/// file, a loaded representation handed to the app): what `cat > FILE` or `cp` would give it,
/// 0666 without the bits of the user's umask (0644 under the usual 022). Photos dropped into
/// ~/Pictures are as readable as the ones copied there by any other tool.
///
/// A file is created private (mkstemp's 0600) while its bytes arrive, so nobody reads a part,
/// and gets this mode once it is complete.
package enum NewFileMode {
    /// 0666 without the umask's bits.
    package static var regularFile: mode_t { 0o666 & ~umask }

    /// The process's umask, read from `/proc/self/status`: `umask(2)` reports it only by setting
    /// it, which changes it for a moment for every thread of the process (and a library must not
    /// do that behind its app's threads). Where the line cannot be read (a kernel before 4.7,
    /// no /proc), 077: a file too private loses nothing, one too open cannot be taken back.
    package static var umask: mode_t {
        let fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0o077 }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0, errno == EINTR { continue }
            if got <= 0 { break }
            count += got
        }
        return parse(status: bytes[..<count]) ?? 0o077
    }

    /// The octal value of the `Umask:` line of a `/proc/PID/status` text.
    static func parse(status: ArraySlice<UInt8>) -> mode_t? {
        let text = String(decoding: status, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("Umask:") {
            let value = line.dropFirst("Umask:".count).trimmingPrefix(while: { $0 == " " || $0 == "\t" })
            guard let mask = mode_t(value, radix: 8), mask <= 0o777 else { return nil }
            return mask
        }
        return nil
    }
}

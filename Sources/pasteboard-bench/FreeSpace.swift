#if canImport(Glibc)
import Glibc
#endif

/// The room left on a filesystem, checked before a scenario writes gigabytes to it, so a full
/// disk skips the scenario with a note instead of failing it halfway (or filling the disk
/// other programs on the machine need).
enum FreeSpace {
    /// The bytes an unprivileged user may still write on the filesystem holding `path`
    /// (statvfs: available blocks × fragment size), or nil when statvfs fails or the product
    /// does not fit an Int.
    static func availableBytes(at path: String) -> Int? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        guard let blocks = Int(exactly: info.f_bavail), let blockSize = Int(exactly: info.f_frsize) else { return nil }
        let (bytes, overflow) = blocks.multipliedReportingOverflow(by: blockSize)
        return overflow ? nil : bytes
    }
}

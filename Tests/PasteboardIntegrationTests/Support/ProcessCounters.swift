import Foundation

/// What the kernel counts for a process the test started, read from `/proc`.
enum ProcessCounters {
    /// The bytes `pid` has written so far (`wchar` in `/proc/<pid>/io`): how a test sees a
    /// daemon storing a copy on disk, which its resident size no longer shows.
    static func writtenBytes(of pid: Int32) throws -> Int {
        try field("wchar:", in: "/proc/\(pid)/io", scale: 1)
    }

    /// The bytes `pid` has read so far (`rchar` in `/proc/<pid>/io`): a daemon that hands a
    /// stored file to a destination reads none of it.
    static func readBytes(of pid: Int32) throws -> Int {
        try field("rchar:", in: "/proc/\(pid)/io", scale: 1)
    }

    /// The peak resident size of `pid` since it started or since `resetPeak` (VmHWM).
    static func peakResidentBytes(of pid: Int32) throws -> Int {
        try field("VmHWM:", in: "/proc/\(pid)/status", scale: 1024)
    }

    /// Starts `pid`'s peak resident size over from its current size (`clear_refs` 5).
    static func resetPeak(of pid: Int32) throws {
        try Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/\(pid)/clear_refs"))
    }

    private static func field(_ name: String, in path: String, scale: Int) throws -> Int {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
              let value = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        else { throw RawClient.Failure(description: "no \(name) in \(path)") }
        return value * scale
    }
}

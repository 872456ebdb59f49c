#if canImport(Glibc)
import Glibc
#endif

/// The memory of one running process, from /proc/PID/status: what the memory goals judge (the
/// daemon's, and the desktop bridge's, a child of the daemon).
struct ProcessMemory {
    let pid: Int32

    /// The resident set size in bytes (VmRSS), or 0 when it cannot be read.
    var residentBytes: Int { statusField("VmRSS:") }

    /// The peak resident set size in bytes (VmHWM) since `resetPeak`, or 0.
    var peakResidentBytes: Int { statusField("VmHWM:") }

    /// Starts the peak resident size (VmHWM) afresh from the current size (Linux's clear_refs);
    /// false when the kernel refused (no clear_refs, or not ours to write), so the peak still
    /// counts from the process's start and a row can say so.
    @discardableResult
    func resetPeak() -> Bool {
        guard let file = fopen("/proc/\(pid)/clear_refs", "w") else { return false }
        let written = fputs("5", file) >= 0
        return fclose(file) == 0 && written
    }

    /// A size field of /proc/PID/status, in bytes.
    private func statusField(_ name: String) -> Int {
        guard let file = fopen("/proc/\(pid)/status", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix(name) {
                // In KiB; a value whose bytes do not fit an Int (never seen) reads as unknown.
                let kibibytes = Int(text.dropFirst(name.count).filter(\.isNumber)) ?? 0
                let (bytes, overflow) = kibibytes.multipliedReportingOverflow(by: 1024)
                return overflow ? 0 : bytes
            }
        }
        return 0
    }
}

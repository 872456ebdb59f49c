import Foundation

/// Debian's own python3 (not a pyenv one on PATH), which the peers written in Python run under:
/// python-xlib and GTK through python3-gi are Debian packages.
enum DebianPython {
    static let path = "/usr/bin/python3"

    /// Whether Debian's python3 runs `statements` (imports, say) without an error.
    static func runs(_ statements: String) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: path) else { return false }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: path)
        check.arguments = ["-c", statements]
        check.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        check.standardError = FileHandle(forWritingAtPath: "/dev/null")
        guard (try? check.run()) != nil else { return false }
        check.waitUntilExit()
        return check.terminationStatus == 0
    }
}

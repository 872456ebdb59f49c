#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PasteboardSystem

/// Why a configuration cannot be used: the file cannot be read, or a line or an option in it is wrong.
package enum ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file at `path` exists (or was named with `--config`) but cannot be read.
    case unreadable(path: String, errno: Int32)
    /// The file at `path` is not a regular file (a FIFO would block the daemon's read).
    case notRegularFile(path: String)
    /// A setting is wrong: an unknown key, a bad, out-of-range or repeated value, or a line that
    /// is not `key = value`. `key` is nil when the line names none.
    case invalid(ConfigurationSetting.Origin, key: String?, reason: String)

    /// One line: `FILE:LINE: KEY: REASON` for a file, `--KEY: REASON` for the command line.
    package var description: String {
        switch self {
        case .unreadable(let path, let code):
            return "cannot read configuration file \(path): \(SystemError.describe(code))"
        case .notRegularFile(let path):
            return "configuration file \(path) is not a regular file"
        case .invalid(.file(let path, let line), let key, let reason):
            return "\(path):\(line): " + (key.map { "\($0): " } ?? "") + reason
        case .invalid(.commandLine, let key, let reason):
            return (key.map { "--\($0): " } ?? "") + reason
        }
    }
}

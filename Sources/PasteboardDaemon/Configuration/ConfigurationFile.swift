#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The daemon's configuration file, `pasteboardd.conf`: one `key = value` per line, where the
/// keys are ``ConfigurationKey``s; blank lines and lines whose first non-blank character is `#`
/// are ignored. Each key may appear once.
package struct ConfigurationFile: Sendable, Equatable {
    /// The file's path.
    package let path: String
    /// True when the file was named explicitly (`--config`): then a missing file is an error,
    /// where a missing default file just leaves the built-in defaults.
    package let isRequired: Bool

    /// The file at `path`; a missing file is an error only when `isRequired`.
    package init(path: String, isRequired: Bool) {
        self.path = path
        self.isRequired = isRequired
    }

    /// The file named by `--config` (`explicitPath`), else `$XDG_CONFIG_HOME/pasteboard/pasteboardd.conf`,
    /// else `$HOME/.config/pasteboard/pasteboardd.conf`; nil when neither variable is an absolute path.
    package static func located(explicitPath: String?, environment: [String: String]) -> ConfigurationFile? {
        if let explicitPath { return ConfigurationFile(path: explicitPath, isRequired: true) }
        return defaultPath(environment: environment).map { ConfigurationFile(path: $0, isRequired: false) }
    }

    /// `$XDG_CONFIG_HOME/pasteboard/pasteboardd.conf`, else `$HOME/.config/pasteboard/pasteboardd.conf`
    /// (a relative or empty variable is ignored, as the XDG Base Directory spec requires).
    package static func defaultPath(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/pasteboard/pasteboardd.conf" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.config/pasteboard/pasteboardd.conf" }
        return nil
    }

    /// The settings the file gives, in file order, each value checked; none when the file does
    /// not exist and is not required.
    package func read(environment: [String: String]) throws(ConfigurationError) -> [ConfigurationSetting] {
        guard let text = try contents() else { return [] }
        return try Self.parse(text, path: path, environment: environment)
    }

    /// The settings in `text`, read as the file at `path`, in order. Throws at the first line that
    /// is not `key = value`, names an unknown key or one given before, or has a value the key
    /// does not allow (`environment` gives `HOME` for `~/`).
    package static func parse(_ text: String, path: String, environment: [String: String]) throws(ConfigurationError) -> [ConfigurationSetting] {
        var settings: [ConfigurationSetting] = []
        var scratch = DaemonConfiguration(socketPath: "")
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let origin = ConfigurationSetting.Origin.file(path: path, line: index + 1)
            let line = rawLine.trimmingBlanks()
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw .invalid(origin, key: nil, reason: "expected 'key = value', not '\(line)'")
            }
            let name = String(line[..<equals].trimmingBlanks())
            let value = String(line[line.index(after: equals)...].trimmingBlanks())
            guard !name.isEmpty else { throw .invalid(origin, key: nil, reason: "expected a key before '='") }
            guard let key = ConfigurationKey.named(name) else {
                let undashed = String(name.drop { $0 == "-" })
                let hint = undashed != name && ConfigurationKey.named(undashed) != nil
                    ? "write keys without dashes: \(undashed)"
                    : "the keys are listed under CONFIGURATION in pasteboardd(8)"
                throw .invalid(origin, key: name, reason: "unknown key (\(hint))")
            }
            if let earlier = settings.first(where: { $0.key.name == name }), case .file(_, let line) = earlier.origin {
                throw .invalid(origin, key: name, reason: "given twice (first on line \(line))")
            }
            guard !value.isEmpty else { throw .invalid(origin, key: name, reason: "no value after '='") }
            let setting = ConfigurationSetting(key, value, origin: origin)
            try setting.apply(to: &scratch, environment: environment)
            settings.append(setting)
        }
        try checkMemoryOnly(settings)
        return settings
    }

    /// `memory-only = yes` and a `state-directory` contradict each other.
    private static func checkMemoryOnly(_ settings: [ConfigurationSetting]) throws(ConfigurationError) {
        guard let memoryOnly = settings.first(where: { $0.key.name == "memory-only" }),
              (try? ConfigurationKey.parseFlag(memoryOnly.value)) == true,
              let directory = settings.first(where: { $0.key.name == "state-directory" }),
              case .file(_, let line) = directory.origin
        else { return }
        throw .invalid(memoryOnly.origin, key: "memory-only", reason: "cannot be yes when state-directory is set (line \(line)); remove one")
    }

    /// The file's text; nil when it does not exist and is not required.
    private func contents() throws(ConfigurationError) -> String? {
        // Non-blocking: a FIFO planted at the path must not hang the daemon's start or reload.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT, !isRequired { return nil }
            throw .unreadable(path: path, errno: errno)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, errno: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notRegularFile(path: path) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, errno: errno)
            }
            if count == 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate func trimmingBlanks() -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return self[first...last]
    }
}

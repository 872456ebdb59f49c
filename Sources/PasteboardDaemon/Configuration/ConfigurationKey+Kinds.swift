import Logging
import PasteboardSystem

/// The kinds of value a key takes: sizes, counts, seconds, yes/no, a log level, a directory.
extension ConfigurationKey {
    /// The largest size any size key takes unless it names a smaller maximum: 1 TiB (1024G).
    /// Sizes are added up and compared as `Int`s; far below `Int.max`, no sum can overflow.
    static let sizeMaximum = 1 << 40

    /// The largest count any count key takes: 1,000,000 (the daemon adds to counts, such as
    /// descriptors beyond `max-connections`, and a count near `Int.max` would overflow).
    static let countMaximum = 1_000_000

    /// A size in bytes (see ``ByteSize``) from `minimum` up to `maximum`, if given, else up to ``sizeMaximum``.
    static func size(
        _ name: String, _ path: WritableKeyPath<DaemonConfiguration, Int> & Sendable,
        minimum: Int, maximum: Int? = nil, needsRestart: Bool = false
    ) -> ConfigurationKey {
        ConfigurationKey(
            name: name, needsRestart: needsRestart,
            store: { text, configuration, _ throws(InvalidValue) in
                guard let bytes = ByteSize.parse(text) else {
                    if ByteSize.isOverflowing(text) {
                        let largest = maximum ?? sizeMaximum
                        throw InvalidValue("must be at most \(ByteSize.format(largest)) (\(largest) bytes), not \(text)")
                    }
                    throw InvalidValue("'\(text)' is not a size in bytes (a whole number, optionally followed by K, M or G)")
                }
                if let maximum, !(minimum...maximum).contains(bytes) {
                    throw InvalidValue("must be from \(ByteSize.format(minimum)) to \(ByteSize.format(maximum)) (\(minimum) to \(maximum) bytes), not \(text)")
                }
                if bytes < minimum {
                    throw InvalidValue(minimum == 1
                        ? "must be more than 0, not \(text)"
                        : "must be at least \(ByteSize.format(minimum)) (\(minimum) bytes), not \(text)")
                }
                if bytes > sizeMaximum {
                    throw InvalidValue("must be at most \(ByteSize.format(sizeMaximum)) (\(sizeMaximum) bytes), not \(text)")
                }
                configuration[keyPath: path] = bytes
            },
            show: { ByteSize.format($0[keyPath: path]) },
            transfer: { $1[keyPath: path] = $0[keyPath: path] }
        )
    }

    /// A whole number, at least `minimum` and at most ``countMaximum``.
    static func count(
        _ name: String, _ path: WritableKeyPath<DaemonConfiguration, Int> & Sendable, minimum: Int, needsRestart: Bool = false
    ) -> ConfigurationKey {
        ConfigurationKey(
            name: name, needsRestart: needsRestart,
            store: { text, configuration, _ throws(InvalidValue) in
                guard !text.isEmpty, text.allSatisfy(\.isASCIIDigit) else {
                    throw InvalidValue("'\(text)' is not a whole number")
                }
                // Int(text) is nil past Int.max: that is too large as well, not "not a number".
                guard let count = Int(text), count <= countMaximum else {
                    throw InvalidValue("must be at most \(countMaximum), not \(text)")
                }
                guard count >= minimum else { throw InvalidValue("must be at least \(minimum), not \(text)") }
                configuration[keyPath: path] = count
            },
            show: { String($0[keyPath: path]) },
            transfer: { $1[keyPath: path] = $0[keyPath: path] }
        )
    }

    /// Seconds, possibly with a fraction, or `none` for no limit (stored as nil); with
    /// `zeroMeansNoLimit`, 0 is no limit too, else it is not allowed. `none` means what
    /// `noneMeans` says in messages ("no limit"; "off" for a span that turns a rule off).
    static func seconds(
        _ name: String, _ path: WritableKeyPath<DaemonConfiguration, Double?> & Sendable,
        zeroMeansNoLimit: Bool, noneMeans: String = "no limit", needsRestart: Bool = false
    ) -> ConfigurationKey {
        ConfigurationKey(
            name: name, needsRestart: needsRestart,
            store: { text, configuration, _ throws(InvalidValue) in
                if text == "none" {
                    configuration[keyPath: path] = nil
                    return
                }
                guard let first = text.first, first.isASCIIDigit || first == ".", let seconds = Double(text), seconds.isFinite else {
                    throw InvalidValue("'\(text)' is not a number of seconds, or none")
                }
                if seconds == 0 {
                    guard zeroMeansNoLimit else { throw InvalidValue("must be more than 0 seconds, or none for \(noneMeans), not \(text)") }
                    configuration[keyPath: path] = nil
                    return
                }
                if let failure = SecondsLimit.validationFailure(seconds) {
                    throw InvalidValue("\(failure)\(zeroMeansNoLimit ? " (0 or none: \(noneMeans))" : " (none: \(noneMeans))")")
                }
                configuration[keyPath: path] = seconds
            },
            show: { configuration in
                guard let seconds = configuration[keyPath: path] else { return "none" }
                return SecondsLimit.describe(seconds)
            },
            transfer: { $1[keyPath: path] = $0[keyPath: path] }
        )
    }

    /// `yes` or `no` (also `true`/`false`, `on`/`off`, `1`/`0`); with `inverted`, `yes` stores false.
    static func flag(
        _ name: String, _ path: WritableKeyPath<DaemonConfiguration, Bool> & Sendable, inverted: Bool = false, needsRestart: Bool = false
    ) -> ConfigurationKey {
        ConfigurationKey(
            name: name, needsRestart: needsRestart,
            store: { text, configuration, _ throws(InvalidValue) in
                configuration[keyPath: path] = try parseFlag(text) != inverted
            },
            show: { ($0[keyPath: path] != inverted) ? "yes" : "no" },
            transfer: { $1[keyPath: path] = $0[keyPath: path] }
        )
    }

    /// `log-level`: one of swift-log's levels, by name.
    package static let logLevel = ConfigurationKey(
        name: "log-level", needsRestart: false,
        store: { text, configuration, _ throws(InvalidValue) in
            guard let level = Logger.Level(rawValue: text) else {
                throw InvalidValue("'\(text)' is not a log level (\(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            configuration.logLevel = level
        },
        show: { $0.logLevel.rawValue },
        transfer: { $1.logLevel = $0.logLevel }
    )

    /// `state-directory`: an absolute path, or one starting with `~/` (under `$HOME`).
    package static let stateDirectory = ConfigurationKey(
        name: "state-directory", needsRestart: true,
        store: { text, configuration, environment throws(InvalidValue) in
            if text.hasPrefix("~/") {
                guard let home = environment["HOME"], home.hasPrefix("/") else {
                    throw InvalidValue("cannot expand '~/': HOME is not set to an absolute path")
                }
                configuration.stateDirectory = (home.hasSuffix("/") ? String(home.dropLast()) : home) + text.dropFirst()
            } else {
                guard text.hasPrefix("/") else { throw InvalidValue("must be an absolute path or start with ~/, not '\(text)'") }
                configuration.stateDirectory = text
            }
        },
        show: { $0.stateDirectory ?? "none (memory only)" },
        transfer: { $1.stateDirectory = $0.stateDirectory }
    )

    /// `memory-only`: `yes` keeps nothing on disk (no state directory); `no` leaves the state directory as it is.
    package static let memoryOnly = ConfigurationKey(
        name: "memory-only", needsRestart: true,
        store: { text, configuration, _ throws(InvalidValue) in
            if try parseFlag(text) { configuration.stateDirectory = nil }
        },
        show: { $0.stateDirectory == nil ? "yes" : "no" },
        transfer: { $1.stateDirectory = $0.stateDirectory }
    )

    /// Free text checked by `check` (`none` for nil).
    static func text(
        _ name: String, _ path: WritableKeyPath<DaemonConfiguration, String?> & Sendable, needsRestart: Bool,
        check: @escaping @Sendable (String) throws(InvalidValue) -> Void
    ) -> ConfigurationKey {
        ConfigurationKey(
            name: name, needsRestart: needsRestart,
            store: { text, configuration, _ throws(InvalidValue) in
                if text == "none" {
                    configuration[keyPath: path] = nil
                    return
                }
                try check(text)
                configuration[keyPath: path] = text
            },
            show: { $0[keyPath: path] ?? "none" },
            transfer: { $1[keyPath: path] = $0[keyPath: path] }
        )
    }

    /// Words separated by spaces, each checked by `check` (`none` for no words); at most 64.
    static func list(
        _ name: String, _ path: WritableKeyPath<DaemonConfiguration, [String]> & Sendable, needsRestart: Bool,
        check: @escaping @Sendable (String) throws(InvalidValue) -> Void
    ) -> ConfigurationKey {
        ConfigurationKey(
            name: name, needsRestart: needsRestart,
            store: { text, configuration, _ throws(InvalidValue) in
                let words = text == "none" ? [] : text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
                guard words.count <= 64 else { throw InvalidValue("names at most 64 entries, not \(words.count)") }
                for word in words { try check(word) }
                guard Set(words).count == words.count else { throw InvalidValue("names an entry twice") }
                configuration[keyPath: path] = words
            },
            show: { $0[keyPath: path].isEmpty ? "none" : $0[keyPath: path].joined(separator: " ") },
            transfer: { $1[keyPath: path] = $0[keyPath: path] }
        )
    }

    /// The truth value of a yes/no setting as written.
    static func parseFlag(_ text: String) throws(InvalidValue) -> Bool {
        switch text.lowercased() {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default: throw InvalidValue("'\(text)' is not yes or no")
        }
    }
}

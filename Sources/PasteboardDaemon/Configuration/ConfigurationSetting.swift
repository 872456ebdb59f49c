/// One value given for a key, in the configuration file or on the command line, and where.
package struct ConfigurationSetting: Sendable {
    /// Where a setting was given, for error messages.
    package enum Origin: Sendable, Equatable {
        /// Line `line` (from 1) of the file at `path`.
        case file(path: String, line: Int)
        /// The command line (`--key value`).
        case commandLine
    }

    /// The key set.
    package let key: ConfigurationKey
    /// The value as written.
    package let value: String
    /// Where it was written.
    package let origin: Origin

    /// A setting of `key` to `value`, given at `origin`.
    package init(_ key: ConfigurationKey, _ value: String, origin: Origin) {
        self.key = key
        self.value = value
        self.origin = origin
    }

    /// Applies the setting to `configuration`, or throws an error naming where it was given.
    package func apply(to configuration: inout DaemonConfiguration, environment: [String: String]) throws(ConfigurationError) {
        do {
            try key.set(value, in: &configuration, environment: environment)
        } catch {
            throw ConfigurationError.invalid(origin, key: key.name, reason: error.reason)
        }
    }
}

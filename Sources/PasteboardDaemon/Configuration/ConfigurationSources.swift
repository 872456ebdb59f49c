/// Where the daemon's configuration comes from, each overriding the one before: the built-in
/// defaults (with the socket and state directory the environment gives), the configuration file,
/// and the command line. Loading again (on SIGHUP) re-reads the file; the command line still wins.
package struct ConfigurationSources: Sendable {
    /// The built-in defaults, with the socket path and default state directory filled in.
    package var defaults: DaemonConfiguration
    /// The configuration file, if there is a place for one.
    package var file: ConfigurationFile?
    /// The settings given as options, already checked (they are checked again on each load).
    package var commandLine: [ConfigurationSetting]
    /// The environment: `HOME` for `~/` in the file.
    package var environment: [String: String]

    /// Sources combining `defaults`, `file` and `commandLine` in that order.
    package init(defaults: DaemonConfiguration, file: ConfigurationFile?, commandLine: [ConfigurationSetting], environment: [String: String]) {
        self.defaults = defaults
        self.file = file
        self.commandLine = commandLine
        self.environment = environment
    }

    /// The configuration: the defaults, then the file (read now), then the command line. Throws
    /// the first error, naming the file and line or the option; nothing is half-applied.
    package func load() throws(ConfigurationError) -> DaemonConfiguration {
        var configuration = defaults
        for setting in try file?.read(environment: environment) ?? [] {
            try setting.apply(to: &configuration, environment: environment)
        }
        for setting in commandLine {
            try setting.apply(to: &configuration, environment: environment)
        }
        return configuration
    }
}

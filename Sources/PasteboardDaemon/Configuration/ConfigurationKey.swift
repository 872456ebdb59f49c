/// A setting of the daemon that the configuration file gives as `name = value` and the command
/// line as `--name value` (`--name` alone for a yes/no setting): how its value is written, which
/// values are allowed, and whether a running daemon can take a new one.
///
/// Every key is in ``all``; ``named(_:)`` finds one.
package struct ConfigurationKey: Sendable {
    /// Why a value is not allowed for a key, as a sentence fragment ("must be at least 1, not 0").
    package struct InvalidValue: Error, Sendable, Equatable {
        package let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The key as written in the file: the long option without its dashes.
    package let name: String
    /// True when a running daemon keeps its value until it restarts: a reload only reports the change.
    package let needsRestart: Bool
    private let store: @Sendable (String, inout DaemonConfiguration, [String: String]) throws(InvalidValue) -> Void
    private let show: @Sendable (DaemonConfiguration) -> String
    private let transfer: @Sendable (DaemonConfiguration, inout DaemonConfiguration) -> Void

    init(
        name: String, needsRestart: Bool,
        store: @escaping @Sendable (String, inout DaemonConfiguration, [String: String]) throws(InvalidValue) -> Void,
        show: @escaping @Sendable (DaemonConfiguration) -> String,
        transfer: @escaping @Sendable (DaemonConfiguration, inout DaemonConfiguration) -> Void
    ) {
        self.name = name
        self.needsRestart = needsRestart
        self.store = store
        self.show = show
        self.transfer = transfer
    }

    /// Sets this key to `value` as written (`64M`, `none`, `~/state`) in `configuration`, or
    /// throws why the value is not allowed. `environment` gives `HOME` for a leading `~/`.
    package func set(_ value: String, in configuration: inout DaemonConfiguration, environment: [String: String] = [:]) throws(InvalidValue) {
        try store(value, &configuration, environment)
    }

    /// This key's value in `configuration`, as the file would write it.
    package func value(in configuration: DaemonConfiguration) -> String {
        show(configuration)
    }

    /// Copies this key's value from `source` into `target`.
    func copy(from source: DaemonConfiguration, to target: inout DaemonConfiguration) {
        transfer(source, &target)
    }

    /// The key called `name`, if there is one.
    package static func named(_ name: String) -> ConfigurationKey? {
        all.first { $0.name == name }
    }
}

import Logging
import Synchronization

/// The running daemon's configuration, in one place that a reload swaps atomically: connections
/// and requests take a snapshot (``current``) where they use a limit, so a new value applies to
/// what starts after the swap, and nothing sees half of a reload.
package final class LiveConfiguration: Sendable {
    private let state: Mutex<DaemonConfiguration>
    private let logLevel: LogLevelControl?

    /// Holds `configuration`; `logLevel`, when given, follows the configuration's log level.
    package init(_ configuration: DaemonConfiguration, logLevel: LogLevelControl? = nil) {
        state = Mutex(configuration)
        self.logLevel = logLevel
        logLevel?.level = configuration.logLevel
    }

    /// The configuration in effect now.
    package var current: DaemonConfiguration {
        state.withLock { $0 }
    }

    /// Takes the values of `new` that a running daemon can change (keys without
    /// ``ConfigurationKey/needsRestart``), all at once, and reports those that need a restart,
    /// keeping their running values. Anything outside the keys (the socket) stays as it runs.
    @discardableResult
    package func apply(_ new: DaemonConfiguration) -> ConfigurationChange {
        state.withLock { running in
            var change = ConfigurationChange()
            var next = running
            for key in ConfigurationKey.all {
                let (old, wanted) = (key.value(in: running), key.value(in: new))
                guard old != wanted else { continue }
                let difference = ConfigurationChange.Difference(key: key.name, old: old, new: wanted)
                if key.needsRestart {
                    change.needsRestart.append(difference)
                } else {
                    key.copy(from: new, to: &next)
                    change.applied.append(difference)
                }
            }
            running = next
            logLevel?.level = next.logLevel
            return change
        }
    }
}

package import Logging
import Synchronization

/// The daemon's log level, shared by every logger it makes and changed by a configuration
/// reload (``LiveConfiguration``). Bootstrap swift-log with ``makeHandler(label:)``.
package final class LogLevelControl: Sendable {
    private let index: Atomic<Int>

    /// A control starting at `level`.
    package init(_ level: Logger.Level = .info) {
        index = Atomic(Self.levels.firstIndex(of: level) ?? 2)
    }

    /// The lowest level written now.
    package var level: Logger.Level {
        get { Self.levels[index.load(ordering: .relaxed)] }
        set { index.store(Self.levels.firstIndex(of: newValue) ?? 2, ordering: .relaxed) }
    }

    /// A handler writing to stderr at this control's level, for `LoggingSystem.bootstrap`.
    package func makeHandler(label: String) -> any LogHandler {
        ControlledLogHandler(base: StreamLogHandler.standardError(label: label), control: self)
    }

    private static let levels = Logger.Level.allCases
}

/// A `StreamLogHandler` whose level is the control's, whatever the logger sets.
private struct ControlledLogHandler: LogHandler {
    var base: StreamLogHandler
    let control: LogLevelControl

    var logLevel: Logger.Level {
        get { control.level }
        set {}  // one level for the whole daemon: it follows the configuration
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        base.log(event: event)
    }
}

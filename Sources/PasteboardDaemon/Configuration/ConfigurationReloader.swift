package import Logging
import ServiceLifecycle
import UnixSignals

/// Reloads the daemon's configuration on SIGHUP, as a service beside the server (the user's type
/// declarations too, first: see ``TypesReloader``): reads the file again, combines it with the defaults and the command line (``ConfigurationSources``)
/// and applies the result (``PasteboardServer/apply(_:)``), logging what changed, and which
/// changes wait for a restart. A bad file is logged, naming the file and line, and changes
/// nothing: the running configuration stays in place entirely.
package struct ConfigurationReloader: Service, CustomStringConvertible {
    private let server: PasteboardServer
    private let sources: ConfigurationSources
    private let hangups: UnixSignalsSequence
    private let logger: Logger

    /// A reloader for `server`; SIGHUP is trapped once this returns, so from then on a hangup
    /// reloads instead of ending the daemon.
    package init(server: PasteboardServer, sources: ConfigurationSources, logger: Logger) async {
        self.server = server
        self.sources = sources
        self.logger = logger
        hangups = await UnixSignalsSequence(trapping: .sighup)
    }

    /// `ConfigurationReloader(FILE)`, for ServiceLifecycle's logs.
    package var description: String { "ConfigurationReloader(\(sources.file?.path ?? "no file"))" }

    /// Reloads on each SIGHUP until graceful shutdown: the user's type declarations (see
    /// ``TypesReloader``), then the configuration.
    package func run() async {
        let types = TypesReloader(store: server.store, environment: sources.environment, logger: logger)
        for await _ in hangups.cancelOnGracefulShutdown() {
            types.reload()
            await reload()
        }
    }

    /// Loads the configuration again and applies it; nil, with the error logged, when it cannot
    /// be loaded (the running configuration then stays as it is).
    @discardableResult
    package func reload() async -> ConfigurationChange? {
        let file = sources.file?.path ?? "none"
        let configuration: DaemonConfiguration
        do {
            configuration = try sources.load()
        } catch {
            logger.error("configuration not reloaded; the running configuration stays: \(error)", metadata: ["file": "\(file)"])
            return nil
        }
        let change = await server.apply(configuration)
        for difference in change.needsRestart {
            logger.warning("\(difference.key) needs a restart: keeping \(difference.old), not \(difference.new)", metadata: ["file": "\(file)"])
        }
        logger.notice("configuration reloaded", metadata: [
            "file": "\(file)",
            "changed": "\(change.applied.isEmpty ? "nothing" : change.applied.map(\.description).joined(separator: ", "))",
        ])
        return change
    }
}

import ArgumentParser
import Logging
import PasteboardDaemon
import PasteboardProtocol
import PasteboardTypes
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// `pasteboardd`: parses options, sets up logging, and runs the daemon until SIGTERM/SIGINT.
@main
struct PasteboardDaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pasteboardd",
        abstract: "The Pasteboard daemon: named pasteboards and transfers between processes over a Unix socket.",
        discussion: """
            Listens on $PASTEBOARD_SOCKET, else $XDG_RUNTIME_DIR/pasteboard/pasteboardd.sock, else \
            /tmp/pasteboard-$UID/pasteboardd.sock. Only processes of the same user may connect. \
            pb starts the daemon by itself when nothing listens. SIGTERM and SIGINT shut it down gracefully.
            """
    )

    @Option(name: .long, help: ArgumentHelp("Listen on this socket path instead of the default.", valueName: "path"))
    var socket: String?

    @Option(name: .long, help: ArgumentHelp(
        "Keep pasteboards durably in this directory (default: $XDG_STATE_HOME/pasteboard, else ~/.local/state/pasteboard).",
        valueName: "path"))
    var stateDirectory: String?

    @Flag(name: .long, help: "Keep pasteboards in memory only: nothing is written to disk, and nothing survives a restart.")
    var memoryOnly = false

    @Flag(name: .long, help: "Offer no descriptor hand-off: every load from a live source streams through the daemon.")
    var noHandoff = false

    @Option(name: .long, help: ArgumentHelp("Append logs to this file instead of stderr.", valueName: "path"))
    var logFile: String?

    @Option(name: .long, help: ArgumentHelp("Log level: trace, debug, info, notice, warning, error, critical.", valueName: "level"))
    var logLevel: String = "info"

    @Option(name: .long, help: ArgumentHelp("Largest representation held in memory, in bytes.", valueName: "bytes"))
    var maxRepresentationSize: Int = 256 << 20

    @Option(name: .long, help: ArgumentHelp("Largest frame accepted, in bytes (65536 to 1048576).", valueName: "bytes"))
    var maxFrameLength: Int = ProtocolLimits.defaultMaxFrameLength

    @Option(name: .long, help: ArgumentHelp("Most items one write, drag or add request may carry (so, most items on one pasteboard).", valueName: "count"))
    var maxItems: Int = 10_000

    @Option(name: .long, help: ArgumentHelp("Most client connections served at once; more are refused with limit-reached.", valueName: "count"))
    var maxConnections: Int = 4096

    @Option(name: .long, help: ArgumentHelp("Most loads (reads) one connection may have in flight at once.", valueName: "count"))
    var maxLoadsPerConnection: Int = 16

    @Option(name: .long, help: ArgumentHelp("Seconds a new connection has to send its hello (0: no limit).", valueName: "seconds"))
    var handshakeTimeout: Double = 10

    @Option(name: .long, help: ArgumentHelp(
        "Close a connection idle this many seconds: no frame, no request in flight, no promise on a pasteboard (0: no limit).",
        valueName: "seconds"))
    var idleTimeout: Double = 600

    @Option(name: .long, help: ArgumentHelp("Flow-control window per transfer, in bytes.", valueName: "bytes"))
    var window: Int = ProtocolLimits.defaultWindow

    @Option(name: .long, help: ArgumentHelp(
        "Bytes of promised data kept per pasteboard when a live source relinquishes it on exit (0 keeps none).",
        valueName: "bytes"))
    var captureBudget: Int = 64 << 20

    @Option(name: .long, help: ArgumentHelp(
        "Cancel a drag session nobody dropped within this many seconds (a source may ask for its own timeout). Default: no limit.",
        valueName: "seconds"))
    var sessionTimeout: Double?

    @Option(name: .long, help: ArgumentHelp(
        "Most entries the general pasteboard's history keeps; the oldest leave first (0: no history).",
        valueName: "count"))
    var historyItems: Int = 100

    @Option(name: .long, help: ArgumentHelp(
        "Most bytes of data the history's entries hold together; the oldest leave first, and a larger entry is not kept.",
        valueName: "bytes"))
    var historyBytes: Int = 64 << 20

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown log level '\(logLevel)'") }
        guard (ProtocolLimits.minimumMaxFrameLength...ProtocolLimits.defaultMaxFrameLength).contains(maxFrameLength) else {
            throw ValidationError("--max-frame-length must be between 65536 and 1048576")
        }
        guard window >= ProtocolLimits.minimumMaxFrameLength else { throw ValidationError("--window must be at least 65536") }
        guard maxRepresentationSize > 0 else { throw ValidationError("--max-representation-size must be positive") }
        guard maxItems > 0 else { throw ValidationError("--max-items must be positive") }
        guard maxConnections > 0 else { throw ValidationError("--max-connections must be positive") }
        guard maxLoadsPerConnection > 0 else { throw ValidationError("--max-loads-per-connection must be positive") }
        guard handshakeTimeout >= 0, idleTimeout >= 0 else { throw ValidationError("timeouts must be 0 (no limit) or more seconds") }
        guard captureBudget >= 0 else { throw ValidationError("--capture-budget must be 0 or more") }
        guard historyItems >= 0, historyBytes >= 0 else { throw ValidationError("--history-items and --history-bytes must be 0 or more") }
        if memoryOnly && stateDirectory != nil { throw ValidationError("give --state-directory or --memory-only, not both") }
        if let sessionTimeout, !(sessionTimeout > 0) { throw ValidationError("--session-timeout must be more than 0 seconds") }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        let socketPath = socket ?? SocketLocation.socketPath(environment: SocketLocation.currentEnvironment())
        if let logFile { try redirectStandardError(to: logFile, socketPath: socketPath) }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "pasteboardd")
        let environment = SocketLocation.currentEnvironment()

        let (registry, typeErrors) = TypeRegistry.loading(environment: environment)
        for error in typeErrors {
            logger.warning("skipped type declaration", metadata: ["file": "\(error.file)", "field": "\(error.field)", "reason": "\(error.message)"])
        }

        var configuration = DaemonConfiguration(socketPath: socketPath)
        configuration.maxRepresentationSize = maxRepresentationSize
        configuration.captureBudget = captureBudget
        configuration.sessionTimeout = sessionTimeout
        configuration.maxItemsPerPasteboard = maxItems
        configuration.maxConnections = maxConnections
        configuration.maxLoadsPerConnection = maxLoadsPerConnection
        configuration.handshakeTimeout = handshakeTimeout > 0 ? handshakeTimeout : nil
        configuration.idleTimeout = idleTimeout > 0 ? idleTimeout : nil
        raiseOpenFileLimit(toServe: maxConnections, logger: logger)
        configuration.stateDirectory = memoryOnly ? nil : stateDirectory ?? DurableStorage.defaultDirectory(environment: environment)
        // A file-size limit makes a write fail (EFBIG) instead of killing the daemon.
        signal(SIGXFSZ, SIG_IGN)
        configuration.maxFrameLength = maxFrameLength
        configuration.window = window
        configuration.handoff = !noHandoff
        configuration.historyItems = historyItems
        configuration.historyBytes = historyBytes

        let server: PasteboardServer
        do {
            server = try PasteboardServer(configuration: configuration, registry: registry, logger: logger)
        } catch {
            logger.error("\(error)")
            throw ExitCode.failure
        }
        let services = ServiceGroup(
            configuration: .init(
                services: [.init(service: server)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await services.run()
    }

    /// Raises the soft limit on open files to the hard limit, so the daemon can hold the
    /// connections it is configured for; warns when even the hard limit is too low.
    private func raiseOpenFileLimit(toServe connections: Int, logger: Logger) {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        }
        // Each connection takes one descriptor; the daemon needs a few dozen of its own.
        if limit.rlim_cur < rlim_t(connections + 64) {
            logger.warning("the open-file limit is lower than --max-connections needs; connections beyond it fail to be accepted", metadata: [
                "limit": "\(limit.rlim_cur)", "max-connections": "\(connections)",
            ])
        }
    }

    /// Points stderr at `path` (created 0600), preparing the socket directory first since
    /// `pb` puts the log beside the socket when it starts the daemon.
    private func redirectStandardError(to path: String, socketPath: String) throws {
        try SocketDirectory.prepare(SocketLocation.directory(of: socketPath))
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ValidationError("cannot open log file \(path): \(String(cString: strerror(errno)))") }
        dup2(fd, 2)
        close(fd)
    }
}

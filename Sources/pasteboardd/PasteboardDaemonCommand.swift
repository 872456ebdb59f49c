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

    @Option(name: .long, help: ArgumentHelp("Append logs to this file instead of stderr.", valueName: "path"))
    var logFile: String?

    @Option(name: .long, help: ArgumentHelp("Log level: trace, debug, info, notice, warning, error, critical.", valueName: "level"))
    var logLevel: String = "info"

    @Option(name: .long, help: ArgumentHelp("Largest representation held in memory, in bytes.", valueName: "bytes"))
    var maxRepresentationSize: Int = 256 << 20

    @Option(name: .long, help: ArgumentHelp("Largest frame accepted, in bytes (65536 to 1048576).", valueName: "bytes"))
    var maxFrameLength: Int = ProtocolLimits.defaultMaxFrameLength

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

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown log level '\(logLevel)'") }
        guard (ProtocolLimits.minimumMaxFrameLength...ProtocolLimits.defaultMaxFrameLength).contains(maxFrameLength) else {
            throw ValidationError("--max-frame-length must be between 65536 and 1048576")
        }
        guard window >= ProtocolLimits.preferredChunkSize else { throw ValidationError("--window must be at least 65536") }
        guard maxRepresentationSize > 0 else { throw ValidationError("--max-representation-size must be positive") }
        guard captureBudget >= 0 else { throw ValidationError("--capture-budget must be 0 or more") }
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

        let (registry, typeErrors) = TypeRegistry.loading(userTypesDirectory: TypeRegistry.userTypesDirectory(environment: environment))
        for error in typeErrors {
            logger.warning("skipped type declaration", metadata: ["file": "\(error.file)", "field": "\(error.field)", "reason": "\(error.message)"])
        }

        var configuration = DaemonConfiguration(socketPath: socketPath)
        configuration.maxRepresentationSize = maxRepresentationSize
        configuration.captureBudget = captureBudget
        configuration.sessionTimeout = sessionTimeout
        configuration.stateDirectory = memoryOnly ? nil : stateDirectory ?? DurableStorage.defaultDirectory(environment: environment)
        // A file-size limit makes a write fail (EFBIG) instead of killing the daemon.
        signal(SIGXFSZ, SIG_IGN)
        configuration.maxFrameLength = maxFrameLength
        configuration.window = window

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

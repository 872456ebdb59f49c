import ArgumentParser
import Logging
import PasteboardDaemon
import PasteboardSystem
import PasteboardTypes
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
import UnixSignals
#endif

/// `pasteboardd`: parses options, sets up logging, and runs the daemon until SIGTERM/SIGINT,
/// reloading the user's type declarations and its configuration file on SIGHUP.
@main
struct PasteboardDaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pasteboardd",
        abstract: "The Pasteboard daemon: named pasteboards and transfers between processes over a Unix socket.",
        discussion: """
            Listens on $PASTEBOARD_SOCKET, else $XDG_RUNTIME_DIR/pasteboard/pasteboardd.sock, else \
            /tmp/pasteboard-$UID/pasteboardd.sock, or on the socket systemd passes (LISTEN_FDS). Only \
            processes of the same user may connect. pb starts the daemon by itself when nothing listens. \
            Settings come from $XDG_CONFIG_HOME/pasteboard/pasteboardd.conf (key = value, the keys being \
            the long options below without dashes), and options given here win over the file. SIGHUP \
            reloads the file, and the type declarations of $XDG_CONFIG_HOME/pasteboard/types.d (see \
            pasteboard-types(5)); SIGTERM and SIGINT shut the daemon down gracefully. Sizes take K, M or G. \
            With DISPLAY or WAYLAND_DISPLAY in its environment, the daemon starts the desktop bridge \
            (pasteboard-bridge, found next to it or on PATH), which makes the general pasteboard the \
            desktop clipboard and primary the primary selection; `pb bridge` shows it.
            """,
        version: PasteboardRelease.version
    )

    /// The exit status for a configuration file that is missing (`--config`), unreadable or wrong (EX_CONFIG).
    static let configurationFailure = ExitCode(78)

    @Option(name: .long, help: ArgumentHelp("Listen on this socket path instead of the default.", valueName: "path"))
    var socket: String?

    @Option(name: .long, help: ArgumentHelp(
        "Read settings from this file instead of $XDG_CONFIG_HOME/pasteboard/pasteboardd.conf; it must exist.",
        valueName: "path"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp(
        "Keep pasteboards durably in this directory (default: $XDG_STATE_HOME/pasteboard, else ~/.local/state/pasteboard).",
        valueName: "path"))
    var stateDirectory: String?

    @Flag(name: .long, help: "Keep pasteboards in memory only: nothing is written to disk, and nothing survives a restart.")
    var memoryOnly = false

    @Flag(name: .long, help: "Offer no descriptor hand-off: every load from a live source streams through the daemon.")
    var noHandoff = false

    @Flag(name: .long, help: "Show every drag session not restricted to its application on the desktop, as pb drag --desktop does for one.")
    var desktopDrags = false

    @Flag(name: .long, help: "Start no desktop bridge: general and primary stay apart from the X11 and Wayland clipboards.")
    var noBridge = false

    @Flag(name: .long, help: "Let the desktop bridge serve a forwarded (TCP) X display, such as ssh -X's localhost:10.0.")
    var bridgeRemoteDisplay = false

    @Flag(name: .long, help: "Keep the primary pasteboard (the primary selection) durably; by default it is not kept across a restart.")
    var durablePrimary = false

    @Option(name: .long, help: ArgumentHelp("Append logs to this file instead of stderr.", valueName: "path"))
    var logFile: String?

    @Option(name: .long, help: ArgumentHelp(
        "Log level: trace, debug, info, notice, warning, error, critical (default: info).", valueName: "level"))
    var logLevel: String?

    @Option(name: .long, help: ArgumentHelp(
        "Largest eager representation taken, in bytes, on disk or in memory; larger ones are refused with too-large (default: 256G).",
        valueName: "bytes"))
    var maxRepresentationSize: String?

    @Option(name: .long, help: ArgumentHelp(
        "Largest eager representation kept in memory, in bytes: a sensitive item's, or any with --memory-only (default: 256M).",
        valueName: "bytes"))
    var maxInMemorySize: String?

    @Option(name: .long, help: ArgumentHelp("Largest frame accepted, in bytes, 64K to 1M (default: 1M).", valueName: "bytes"))
    var maxFrameLength: String?

    @Option(name: .long, help: ArgumentHelp(
        "Most items one write, drag or add request may carry (so, most items on one pasteboard) (default: 10000).",
        valueName: "count"))
    var maxItems: String?

    @Option(name: .long, help: ArgumentHelp(
        "Most client connections served at once; more are refused with limit-reached (default: 4096).", valueName: "count"))
    var maxConnections: String?

    @Option(name: .long, help: ArgumentHelp("Most loads (reads) one connection may have in flight at once (default: 16).", valueName: "count"))
    var maxLoadsPerConnection: String?

    @Option(name: .long, help: ArgumentHelp(
        "Seconds a new connection has to send its hello (0 or none: no limit) (default: 10).", valueName: "seconds"))
    var handshakeTimeout: String?

    @Option(name: .long, help: ArgumentHelp(
        "Close a connection idle this many seconds: no frame, no request in flight, no promise on a pasteboard (0 or none: no limit) (default: 600).",
        valueName: "seconds"))
    var idleTimeout: String?

    @Option(name: .long, help: ArgumentHelp("Flow-control window per transfer, in bytes, at least 64K (default: 4M).", valueName: "bytes"))
    var window: String?

    @Option(name: .long, help: ArgumentHelp(
        "Bytes of promised data kept per pasteboard when a live source relinquishes it on exit (0 keeps none) (default: 64M).",
        valueName: "bytes"))
    var captureBudget: String?

    @Option(name: .long, help: ArgumentHelp(
        "Cancel a drag session nobody dropped within this many seconds (a source may ask for its own timeout) (default: none).",
        valueName: "seconds"))
    var sessionTimeout: String?

    @Option(name: .long, help: ArgumentHelp(
        "Most entries the general pasteboard's history keeps; the oldest leave first (0: no history) (default: 100).",
        valueName: "count"))
    var historyItems: String?

    @Option(name: .long, help: ArgumentHelp(
        "Most bytes of data the history's entries hold together, a stored file shared by entries counted once; the oldest leave first, and a larger entry is not kept (default: 1G).",
        valueName: "bytes"))
    var historyBytes: String?

    @Option(name: .long, help: ArgumentHelp(
        "A copy replaced within this many seconds by what it replaced, or by nothing, was transient (a password manager's): it leaves the history and the disk (0 or none: off) (default: 60).",
        valueName: "seconds"))
    var historyTransientSeconds: String?

    @Option(name: .long, help: ArgumentHelp(
        "This machine's name to linked daemons and in their history; none is the host name (default: none).", valueName: "name"))
    var machineName: String?

    @Option(name: .long, help: ArgumentHelp(
        "Keep these machines linked ([user@]host or ssh aliases, separated by spaces), each through a pb link child (default: none).",
        valueName: "hosts"))
    var link: String?

    @Option(name: .long, help: ArgumentHelp(
        "The ssh command of links, with its options, as rsync's -e; none is PASTEBOARD_SSH, else ssh (default: none).", valueName: "command"))
    var linkSsh: String?

    @Option(name: .customLong("link-remote-pb"), help: ArgumentHelp(
        "The command that runs pb on the linked machines; none is pb, found on the PATH a non-interactive ssh session has (default: none).",
        valueName: "command"))
    var linkRemotePB: String?

    @Option(name: .long, help: ArgumentHelp(
        "The pasteboards links share, separated by spaces (default: general).", valueName: "names"))
    var linkPasteboards: String?

    @Flag(name: .long, help: "Let the links this daemon keeps carry sensitive items too, both ways (they start the other end with it).")
    var linkSensitive = false

    @Option(name: .long, help: ArgumentHelp(
        "Most bytes of text a link sends with a change at once, 0 to 64M; the rest is fetched when pasted (default: 1M).",
        valueName: "bytes"))
    var linkCapture: String?

    /// The options that are configuration keys, as settings that win over the file.
    private var commandLineSettings: [ConfigurationSetting] {
        let given: [(ConfigurationKey, String?)] = [
            (.logLevel, logLevel),
            (.maxRepresentationSize, maxRepresentationSize),
            (.maxInMemorySize, maxInMemorySize),
            (.maxFrameLength, maxFrameLength),
            (.maxItems, maxItems),
            (.maxConnections, maxConnections),
            (.maxLoadsPerConnection, maxLoadsPerConnection),
            (.handshakeTimeout, handshakeTimeout),
            (.idleTimeout, idleTimeout),
            (.window, window),
            (.captureBudget, captureBudget),
            (.sessionTimeout, sessionTimeout),
            (.desktopDrags, desktopDrags ? "yes" : nil),
            (.historyItems, historyItems),
            (.historyBytes, historyBytes),
            (.historyTransientSeconds, historyTransientSeconds),
            (.stateDirectory, stateDirectory.map(LexicalPath.absolute)),
            (.memoryOnly, memoryOnly ? "yes" : nil),
            (.noHandoff, noHandoff ? "yes" : nil),
            (.noBridge, noBridge ? "yes" : nil),
            (.bridgeRemoteDisplay, bridgeRemoteDisplay ? "yes" : nil),
            (.durablePrimary, durablePrimary ? "yes" : nil),
            (.machineName, machineName),
            (.link, link),
            (.linkSSH, linkSsh),
            (.linkRemotePB, linkRemotePB),
            (.linkPasteboards, linkPasteboards),
            (.linkSensitive, linkSensitive ? "yes" : nil),
            (.linkCapture, linkCapture),
        ]
        return given.compactMap { key, value in value.map { ConfigurationSetting(key, $0, origin: .commandLine) } }
    }

    func validate() throws {
        if memoryOnly && stateDirectory != nil { throw ValidationError("give --state-directory or --memory-only, not both") }
        var scratch = DaemonConfiguration(socketPath: "")
        for setting in commandLineSettings {
            do {
                try setting.apply(to: &scratch, environment: [:])
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    func run() async throws {
        let environment = ProcessEnvironment.current()
        let activation = Result { () throws(DaemonError) in try ActivatedSocket.takeFromEnvironment() }
        let socketPath = (try? activation.get())??.path ?? socket ?? SocketLocation.socketPath(environment: environment)
        if let logFile { try redirectStandardError(to: logFile, socketPath: socketPath) }
        // Log lines are stamped with localtime(3), which with TZ unset re-reads the state of
        // /etc/localtime on every call (a stat per line); named in TZ, it is read once.
        if getenv("TZ") == nil { setenv("TZ", ":/etc/localtime", 0) }
        let logLevels = LogLevelControl()
        LoggingSystem.bootstrap { label in logLevels.makeHandler(label: label) }
        let logger = Logger(label: "pasteboardd")

        let activated: ActivatedSocket?
        do {
            activated = try activation.get()
        } catch {
            logger.error("\(error)")
            throw ExitCode.failure
        }
        if let activated, let socket, socket != activated.path {
            logger.warning("ignoring --socket: serving the socket systemd passed", metadata: ["socket": "\(activated.path)"])
        }

        var defaults = DaemonConfiguration(socketPath: socketPath)
        defaults.stateDirectory = DurableStorage.defaultDirectory(environment: environment)
        let sources = ConfigurationSources(
            defaults: defaults, file: ConfigurationFile.located(explicitPath: config, environment: environment),
            commandLine: commandLineSettings, environment: environment)
        let configuration: DaemonConfiguration
        do {
            configuration = try sources.load()
        } catch {
            logger.error("\(error)")
            throw Self.configurationFailure
        }
        logLevels.level = configuration.logLevel

        let (registry, typeErrors) = TypeRegistry.loading(environment: environment)
        for error in typeErrors {
            logger.warning("skipped type declaration", metadata: ["file": "\(error.file)", "field": "\(error.field)", "reason": "\(error.message)"])
        }
        raiseOpenFileLimit(toServe: configuration.maxConnections, logger: logger)
        // A file-size limit makes a write fail (EFBIG) instead of killing the daemon.
        signal(SIGXFSZ, SIG_IGN)

        let server: PasteboardServer
        do {
            server = try PasteboardServer(
                configuration: configuration, registry: registry, logger: logger, activatedSocket: activated, logLevel: logLevels)
        } catch {
            logger.error("\(error)")
            throw ExitCode.failure
        }
        let reloader = await ConfigurationReloader(server: server, sources: sources, logger: logger)
        let supervisor = BridgeSupervisor(configuration: configuration, environment: environment, logger: logger, startup: server.bridgeStartup)
        let links = LinkSupervisor(configuration: server.configuration, environment: environment, logger: logger)
        // A client that connects before the bridge has started (the paste that started this
        // daemon) waits for its first import, not only one that connects after.
        if supervisor.willStartBridge { server.bridgeStartup.expect(pid: nil, socketPath: configuration.socketPath) }
        let services = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: server), .init(service: reloader),
                    // The bridge ending (no display to serve, turned off) leaves the daemon running.
                    .init(service: supervisor, successTerminationBehavior: .ignore),
                    // No links configured, or no pb to run them: the daemon runs on.
                    .init(service: links, successTerminationBehavior: .ignore),
                ],
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
        try SocketDirectory.prepare(LexicalPath.directory(of: socketPath))
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ValidationError("cannot open log file \(path): \(SystemError.current)") }
        dup2(fd, 2)
        close(fd)
    }
}

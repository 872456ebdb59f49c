#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
package import Logging
package import NIOCore
import NIOPosix
import PasteboardProtocol
import PasteboardSystem
package import PasteboardTypes
import ServiceLifecycle
import Synchronization

/// The daemon as a service: owns the socket (or serves the one systemd passed), accepts
/// connections, checks each peer's uid, and serves it until graceful shutdown. Its
/// configuration can change while it runs (``apply(_:)``).
package final class PasteboardServer: Service, Sendable {
    /// The daemon's name and release, sent in `welcome`.
    package static let daemonName = "pasteboardd \(PasteboardRelease.version)"

    private let live: LiveConfiguration
    /// The pasteboards and the types (see `TypesReloader` for a reload of the latter).
    let store: PasteboardStore
    private let logger: Logger
    private let lock: InstanceLock
    /// The state directory's lock, held while the daemon runs (nil: memory only).
    private let stateLock: StateDirectoryLock?
    private let group: any EventLoopGroup
    private let activated: ActivatedSocket?
    private let openConnections = Atomic<Int>(0)

    /// Prepares the socket directory, takes the single-instance lock (throws if another daemon
    /// runs), and prepares the state directory when the configuration names one, taking its
    /// lock (throws if a daemon on another socket uses it).
    ///
    /// With `activatedSocket` (passed by systemd), the daemon serves that socket instead of
    /// binding its own, and its path replaces the configuration's socket path. `logLevel`, when
    /// given, follows the configuration's log level, on start and on ``apply(_:)``. `spoolSystem`
    /// replaces the spool's system calls (tests: a disk with a given free space), `clock` the wall
    /// clock of expiries and the history (tests: one they move forward).
    package init(configuration: DaemonConfiguration, registry: TypeRegistry, logger: Logger,
                group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                activatedSocket: ActivatedSocket? = nil, logLevel: LogLevelControl? = nil,
                spoolSystem: SpoolSystem = .live, clock: WallClock = .system) throws(DaemonError) {
        var configuration = configuration
        if let activatedSocket { configuration.socketPath = activatedSocket.path }
        try SocketDirectory.prepare(LexicalPath.directory(of: configuration.socketPath))
        self.lock = try InstanceLock(socketPath: configuration.socketPath)
        self.live = LiveConfiguration(configuration, logLevel: logLevel)
        // The state directory is this daemon's alone before anything in it is read.
        let socketPath = configuration.socketPath
        self.stateLock = try configuration.stateDirectory.map { directory throws(DaemonError) in
            try OwnDirectory.prepare(directory, kind: .state)
            return try StateDirectoryLock(directory: directory, socketPath: socketPath)
        }
        let storage = try configuration.stateDirectory.map { directory throws(DaemonError) in try DurableStorage(directory: directory, spoolSystem: spoolSystem) }
        let machine = try configuration.stateDirectory.map { directory throws(DaemonError) in
            try MachineIdentity.load(stateDirectory: directory, name: configuration.machineName)
        } ?? .ephemeral(name: configuration.machineName)
        self.store = PasteboardStore(
            registry: registry, storage: storage,
            memoryOnly: configuration.durablePrimary ? [] : [PasteboardName.primary], historyLimits: configuration.historyLimits,
            clock: clock, machine: machine)
        self.logger = logger
        self.group = group
        self.activated = activatedSocket
    }

    /// The configuration in effect now.
    package var configuration: DaemonConfiguration { live.current }

    /// What the bridge supervisor tells when it starts a bridge (see `BridgeStartupGate`).
    package var bridgeStartup: BridgeStartupGate { store.bridgeStartup }

    /// Applies a new configuration (a reload): the limits a running daemon can change take effect
    /// for new connections and requests at once, and new history bounds drop the oldest entries
    /// that no longer fit; keys that need a restart keep their running values and are reported.
    /// See ``LiveConfiguration/apply(_:)``.
    @discardableResult
    package func apply(_ new: DaemonConfiguration) async -> ConfigurationChange {
        let change = live.apply(new)
        let historyLimits = live.current.historyLimits
        if await store.historyLimits != historyLimits {
            await store.setHistoryLimits(historyLimits)
        }
        return change
    }

    /// Serves until shutdown: the socket systemd passed, else its own, bound here (replacing a
    /// stale one, mode 0600) and removed at the end.
    package func run() async throws {
        let configuration = live.current
        let path = configuration.socketPath
        let restored = await store.restore(logger: logger)
        if let directory = configuration.stateDirectory {
            logger.info("restored pasteboards", metadata: ["count": "\(restored)", "directory": "\(directory)"])
        }
        // The hand-off socket is ready before the main one listens, so every client that
        // connects finds it.
        let handoff = startHandoff()
        let serverChannel: NIOAsyncChannel<AcceptedConnection, Never>
        do {
            serverChannel = try await listen(on: path, maxFrameLength: configuration.maxFrameLength)
        } catch {
            handoff?.stop()
            throw error
        }
        var metadata: Logger.Metadata = ["socket": "\(path)", "pid": "\(getpid())", "handoff": "\(handoff?.path ?? "off")"]
        if let activated {
            metadata["activation"] = "systemd"
            if activated.passedCount > 1 {
                logger.warning("systemd passed more than one socket; serving only the first", metadata: ["count": "\(activated.passedCount)"])
            }
        }
        logger.info("listening", metadata: metadata)
        let ownsSocketFile = activated == nil
        defer {
            handoff?.stop()
            if ownsSocketFile { unlink(path) }
            logger.info("stopped", metadata: ["socket": "\(path)"])
        }

        // Graceful shutdown closes the listening socket: the accept loop then ends after handing
        // over every connection already accepted (each must be served or closed through
        // executeThenClose), and the open connections are cancelled.
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                try await serverChannel.executeThenClose { connections in
                    var nextID = 0
                    // On the listening channel's loop, where connections are accepted: on the
                    // global executor, each accepted connection woke a worker thread.
                    let acceptor = EventLoopTaskExecutor(serverChannel.channel.eventLoop)
                    try await withTaskExecutorPreference(acceptor) {
                        for try await connection in connections {
                            nextID += 1
                            let id = nextID
                            let framed = connection.take()
                            let peer = connection.peer
                            let executor = EventLoopTaskExecutor(framed.channel.channel.eventLoop)
                            group.addTask(executorPreference: executor) {
                                await self.serve(framed, peer: peer, id: id, handoff: handoff, executor: executor)
                            }
                        }
                    }
                }
                group.cancelAll()
            }
        } onGracefulShutdown: {
            serverChannel.channel.close(promise: nil)
        }
        await store.finishAllWatchers()
    }

    /// The listening channel: on the socket systemd passed (its file left as it is), else bound
    /// at `path` with mode 0600 after removing a stale socket there.
    private func listen(on path: String, maxFrameLength: Int) async throws -> NIOAsyncChannel<AcceptedConnection, Never> {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .childChannelOption(.recvAllocator, value: FramedReading.allocator)
        let accept: @Sendable (Channel) -> EventLoopFuture<AcceptedConnection> = { channel in
            PeerCredentials.of(channel)
                .map { Result<PeerCredentials, any Error>.success($0) }
                .recover { .failure($0) }
                .flatMapThrowing { peer in
                    AcceptedConnection(try FramedChannel(channel, maxFrameLength: maxFrameLength), peer: peer)
                }
        }
        if let activated {
            return try await bootstrap.bind(activated.descriptor, childChannelInitializer: accept)
        }
        try removeStaleSocket(path)
        let previousMask = umask(0o177)
        defer { umask(previousMask) }
        let channel = try await bootstrap.bind(unixDomainSocketPath: path, childChannelInitializer: accept)
        chmod(path, 0o600)
        return channel
    }

    /// The hand-off socket, when the configuration offers hand-off and it can be bound (else
    /// every load streams through the daemon, which is logged).
    private func startHandoff() -> HandoffListener? {
        let configuration = live.current
        guard configuration.handoff else { return nil }
        do {
            let listener = try HandoffListener(socketPath: configuration.socketPath, logger: logger)
            listener.start()
            return listener
        } catch {
            logger.warning("hand-off disabled: \(error)")
            return nil
        }
    }

    private func serve(
        _ connection: FramedChannel, peer: Result<PeerCredentials, any Error>, id: Int, handoff: HandoffListener?,
        executor: EventLoopTaskExecutor
    ) async {
        var logger = logger
        logger[metadataKey: "connection.id"] = "\(id)"
        let open = openConnections.wrappingAdd(1, ordering: .relaxed).newValue
        defer { openConnections.wrappingSubtract(1, ordering: .relaxed) }
        let configuration = live.current
        guard open <= configuration.maxConnections else {
            logger.warning("refused a connection over the limit", metadata: ["limit": "\(configuration.maxConnections)"])
            await refuse(connection, ProtocolError(
                .limitReached, "pasteboardd serves at most \(configuration.maxConnections) connections at once (pasteboardd --max-connections); try again later"))
            return
        }
        let peerPID: Int32
        do {
            let peer = try peer.get()
            peerPID = peer.pid
            logger[metadataKey: "peer.pid"] = "\(peer.pid)"
            guard peer.uid == getuid() else {
                logger.warning("refused connection from another user", metadata: ["peer.uid": "\(peer.uid)"])
                await refuse(connection, ProtocolError(.permissionDenied, "pasteboardd serves uid \(getuid()) only"))
                return
            }
        } catch {
            logger.warning("cannot read peer credentials; closing", metadata: ["error": "\(error)"])
            try? await connection.channel.executeThenClose { _, _ in }
            return
        }
        await ClientConnection(
            connection: connection, store: store, liveConfiguration: live, logger: logger,
            daemonName: Self.daemonName, daemonPID: getpid(), peerPID: peerPID, handoff: handoff, executor: executor
        ).run()
    }

    /// Tells the peer why on request id 0, then closes its connection.
    private func refuse(_ connection: FramedChannel, _ error: ProtocolError) async {
        try? await connection.channel.executeThenClose { _, _ in
            try await connection.outbox.send(.message(.error(error), requestID: 0))
        }
    }

    /// We hold the instance lock, so a socket file left at `path` belongs to a dead daemon.
    private func removeStaleSocket(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw DaemonError.unsafeFile(path: path, reason: "a file that is not a socket is in the way of the socket")
        }
        logger.info("replacing stale socket", metadata: ["socket": "\(path)"])
        unlink(path)
    }
}

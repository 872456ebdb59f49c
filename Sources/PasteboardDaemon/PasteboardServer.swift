#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
import NIOCore
import NIOPosix
import PasteboardProtocol
import PasteboardTypes
import ServiceLifecycle
import Synchronization

/// The daemon as a service: owns the socket, accepts connections, checks each peer's uid,
/// and serves it until graceful shutdown.
public final class PasteboardServer: Service, Sendable {
    /// The daemon's name and release, sent in `welcome`.
    public static let daemonName = "pasteboardd 0.1.0"

    private let configuration: DaemonConfiguration
    private let store: PasteboardStore
    private let logger: Logger
    private let lock: InstanceLock
    private let group: any EventLoopGroup
    private let openConnections = Atomic<Int>(0)

    /// Prepares the socket directory, takes the single-instance lock (throws if another daemon
    /// runs), and prepares the state directory when the configuration names one.
    public init(configuration: DaemonConfiguration, registry: TypeRegistry, logger: Logger,
                group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) throws(DaemonError) {
        try SocketDirectory.prepare(SocketLocation.directory(of: configuration.socketPath))
        self.lock = try InstanceLock(socketPath: configuration.socketPath)
        self.configuration = configuration
        let storage = try configuration.stateDirectory.map { directory throws(DaemonError) in try DurableStorage(directory: directory) }
        self.store = PasteboardStore(registry: registry, storage: storage, historyLimits: configuration.historyLimits)
        self.logger = logger
        self.group = group
    }

    /// Binds the socket (replacing a stale one, mode 0600) and serves until shutdown.
    public func run() async throws {
        let path = configuration.socketPath
        let restored = await store.restore(logger: logger)
        if let directory = configuration.stateDirectory {
            logger.info("restored pasteboards", metadata: ["count": "\(restored)", "directory": "\(directory)"])
        }
        try removeStaleSocket(path)
        let configuration = configuration
        let previousMask = umask(0o177)
        let serverChannel: NIOAsyncChannel<AcceptedConnection, Never>
        do {
            serverChannel = try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 1024)
                .childChannelOption(.recvAllocator, value: FramedReading.allocator)
                .bind(unixDomainSocketPath: path) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        AcceptedConnection(try NIOAsyncChannel.framed(channel, maxFrameLength: configuration.maxFrameLength))
                    }
                }
        } catch {
            umask(previousMask)
            throw error
        }
        umask(previousMask)
        chmod(path, 0o600)
        let handoff = startHandoff()
        logger.info("listening", metadata: ["socket": "\(path)", "pid": "\(getpid())", "handoff": "\(handoff?.path ?? "off")"])
        defer {
            handoff?.stop()
            unlink(path)
            logger.info("stopped", metadata: ["socket": "\(path)"])
        }

        // Graceful shutdown closes the listening socket: the accept loop then ends after handing
        // over every connection already accepted (each must be served or closed through
        // executeThenClose), and the open connections are cancelled.
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                try await serverChannel.executeThenClose { connections in
                    var nextID = 0
                    for try await connection in connections {
                        nextID += 1
                        let id = nextID
                        let channel = connection.take()
                        group.addTask { await self.serve(channel, id: id, handoff: handoff) }
                    }
                }
                group.cancelAll()
            }
        } onGracefulShutdown: {
            serverChannel.channel.close(promise: nil)
        }
        await store.finishAllWatchers()
    }

    /// The hand-off socket, when the configuration offers hand-off and it can be bound (else
    /// every load streams through the daemon, which is logged).
    private func startHandoff() -> HandoffListener? {
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

    private func serve(_ connection: NIOAsyncChannel<Frame, Frame>, id: Int, handoff: HandoffListener?) async {
        var logger = logger
        logger[metadataKey: "connection.id"] = "\(id)"
        let open = openConnections.wrappingAdd(1, ordering: .relaxed).newValue
        defer { openConnections.wrappingSubtract(1, ordering: .relaxed) }
        guard open <= configuration.maxConnections else {
            logger.warning("refused a connection over the limit", metadata: ["limit": "\(configuration.maxConnections)"])
            await refuse(connection, ProtocolError(
                .limitReached, "pasteboardd serves at most \(configuration.maxConnections) connections at once (pasteboardd --max-connections); try again later"))
            return
        }
        let peerPID: Int32
        do {
            let peer = try await PeerCredentials.of(connection.channel)
            peerPID = peer.pid
            logger[metadataKey: "peer.pid"] = "\(peer.pid)"
            guard peer.uid == getuid() else {
                logger.warning("refused connection from another user", metadata: ["peer.uid": "\(peer.uid)"])
                await refuse(connection, ProtocolError(.permissionDenied, "pasteboardd serves uid \(getuid()) only"))
                return
            }
        } catch {
            logger.warning("cannot read peer credentials; closing", metadata: ["error": "\(error)"])
            try? await connection.executeThenClose { _, _ in }
            return
        }
        await ClientConnection(
            channel: connection, store: store, configuration: configuration, logger: logger,
            daemonName: Self.daemonName, daemonPID: getpid(), peerPID: peerPID, handoff: handoff
        ).run()
    }

    /// Tells the peer why on request id 0, then closes its connection.
    private func refuse(_ connection: NIOAsyncChannel<Frame, Frame>, _ error: ProtocolError) async {
        try? await connection.executeThenClose { _, outbound in
            try await outbound.write(.message(.error(error), requestID: 0))
        }
    }

    /// We hold the instance lock, so a socket file left at `path` belongs to a dead daemon.
    private func removeStaleSocket(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw DaemonError.unsafeDirectory(path: path, reason: "a file that is not a socket is in the way")
        }
        logger.info("replacing stale socket", metadata: ["socket": "\(path)"])
        unlink(path)
    }
}

import Logging
import NIOCore
import PasteboardProtocol

/// One client's connection: the handshake (`ClientHandshake`), then its requests until it
/// closes (`RequestDemultiplexer`, which hands each to its feature's handler), then what the
/// client leaves behind: its promises become unavailable and its drag sessions end.
struct ClientConnection: Sendable {
    let connection: FramedChannel
    let store: PasteboardStore
    /// The daemon's configuration: the connection takes its timeouts when it starts, each
    /// request its limits when it starts, so a reload applies to what starts after it.
    let liveConfiguration: LiveConfiguration
    let logger: Logger
    let daemonName: String
    let daemonPID: Int32
    /// The client's process id (SO_PEERCRED).
    let peerPID: Int32
    /// The daemon's hand-off socket, when it offers hand-off.
    let handoff: HandoffListener?
    /// The channel's event loop as a task executor: the connection's tasks prefer it.
    let executor: EventLoopTaskExecutor

    /// Serves the connection until the client closes it, breaks the protocol, or the task is cancelled.
    func run() async {
        let configuration = liveConfiguration.current
        do {
            try await connection.channel.executeThenClose { _, _ in
                // Frames arrive in the inbox (the async channel's stream carries none).
                guard let frames = connection.inbox else { return }
                let writer = FrameWriter(outbox: connection.outbox)
                let requests = RequestTable()
                let watchdog = ConnectionWatchdog(handshakeTimeout: configuration.handshakeTimeout, idleTimeout: configuration.idleTimeout,
                                                  eventLoop: connection.channel.channel.eventLoop)
                let watching = Task(executorPreference: executor) { [store, logger, connection] in
                    await watchdog.closeOnExpiry(connection.channel.channel, writer: writer, logger: logger) { source in
                        guard requests.isEmpty else { return true }
                        return await !store.promises(ownedBy: source).isEmpty
                    }
                }
                defer { watching.cancel() }
                do {
                    guard let first = try await frames.next() else { return }
                    let hello = try ClientHandshake.hello(in: first)
                    // Hand-off only to a client that is its socket's peer: through a forwarder
                    // (ssh -R, socat) the peer is the forwarder, and the client may be on another
                    // machine, where the hand-off socket's path names nothing or another daemon.
                    let endpoint = hello.pid == peerPID ? handoff?.register() : nil
                    if handoff != nil, endpoint == nil {
                        logger.debug("no hand-off: the client's pid is not its socket peer's (a forwarded socket)",
                                     metadata: ["hello.pid": "\(hello.pid.map(String.init) ?? "none")"])
                    }
                    defer { if let endpoint { handoff?.unregister(endpoint) } }
                    try await welcome(writer: writer, handoff: endpoint, configuration: configuration)
                    var logger = logger
                    logger[metadataKey: "client"] = "\(hello.client)"
                    logger.debug("handshake complete")
                    let client = ConnectedClient(
                        clientName: hello.client, pid: peerPID, app: hello.app, writer: writer, window: configuration.window, handoff: endpoint)
                    watchdog.noteHandshake(client: client)
                    defer { client.disconnect() }
                    let context = RequestContext(store: store, writer: writer, requests: requests, client: client, logger: logger,
                                                 liveConfiguration: liveConfiguration, executor: executor)
                    do {
                        try await RequestDemultiplexer(context: context, watchdog: watchdog).serve(frames)
                    } catch {
                        await clientLeft(client)
                        throw error
                    }
                    await clientLeft(client)
                } catch let error as FrameError {
                    logger.notice("closing connection: \(error)")
                    try? await writer.send(.error(ProtocolError(error.code, error.description)), on: 0)
                } catch let error as ProtocolError {
                    logger.notice("closing connection: \(error.message)", metadata: ["code": "\(error.code.rawValue)"])
                    try? await writer.send(.error(error), on: 0)
                }
            }
        } catch is CancellationError {
            logger.debug("connection cancelled")
        } catch {
            logger.debug("connection ended: \(error)")
        }
    }

    /// Answers the `hello` with `welcome`, offering the hand-off socket when `endpoint` is given.
    private func welcome(writer: FrameWriter, handoff endpoint: HandoffEndpoint?, configuration: DaemonConfiguration) async throws {
        let welcome = Welcome(
            daemon: daemonName, pid: daemonPID,
            maxFrameLength: configuration.maxFrameLength, window: configuration.window,
            handoff: endpoint.flatMap { endpoint in handoff?.offer(for: endpoint) },
            machine: store.machine.id, machineName: store.machine.name
        )
        try await writer.send(.welcome(welcome), on: 0)
    }

    /// The connection ended: produces in flight fail, and what it still promised becomes unavailable.
    private func clientLeft(_ client: ConnectedClient) async {
        client.disconnect()
        await store.clientGone(client) { owned in
            "\(client) disconnected without handing over \(owned.type) (item \(owned.item) of '\(owned.pasteboard)')"
        }
    }
}

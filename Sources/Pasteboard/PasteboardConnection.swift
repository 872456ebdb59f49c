#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NIOCore
import NIOPosix
import PasteboardProtocol
import Synchronization

/// A handshaken connection to `pasteboardd`, carrying any number of concurrent requests.
///
/// Use `withConnection(...)`: the connection lives for the closure's duration, then closes.
public final class PasteboardConnection: Sendable {
    /// What the daemon said in its `welcome`.
    public let welcome: Welcome

    private let outbound: NIOAsyncChannelOutboundWriter<Frame>
    private let router: FrameRouter
    private let nextRequestID = Atomic<UInt32>(1)

    private init(outbound: NIOAsyncChannelOutboundWriter<Frame>, router: FrameRouter, welcome: Welcome) {
        self.outbound = outbound
        self.router = router
        self.welcome = welcome
    }

    /// Connects to the daemon at `socketPath` (starting it first when `autoStart` and nothing
    /// listens, unless `$PASTEBOARD_NO_AUTOSTART` is set), performs the handshake as `clientName`, runs `body`, then closes the connection.
    public static func withConnection<Result: Sendable>(
        socketPath: String = SocketLocation.socketPath(environment: SocketLocation.currentEnvironment()),
        clientName: String,
        autoStart: Bool = true,
        _ body: (PasteboardConnection) async throws -> Result
    ) async throws -> Result {
        let channel: NIOAsyncChannel<Frame, Frame>
        do {
            channel = try await connect(socketPath)
        } catch let first {
            guard autoStart, !DaemonLauncher.autoStartDisabled, DaemonLauncher.isNobodyListening(first) else {
                throw PasteboardError.daemonUnreachable(socketPath: socketPath, reason: DaemonLauncher.describe(first))
            }
            try await DaemonLauncher.start(socketPath: socketPath)
            channel = try await DaemonLauncher.waitForDaemon(socketPath: socketPath) { try await connect(socketPath) }
        }
        return try await channel.executeThenClose { inbound, outbound in
            let router = FrameRouter()
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        for try await frame in inbound { router.route(frame) }
                        router.closeAll(PasteboardError.connectionLost("the daemon closed the connection"))
                    } catch {
                        router.closeAll(PasteboardError.connectionLost("\(error)"))
                    }
                }
                defer { group.cancelAll() }
                let handshake = router.open(0, window: nil)
                // A daemon that refuses us (another uid) may answer and close before our hello is
                // written: its error frame, if it arrived, says more than the failed write.
                var helloFailure: (any Error)?
                do {
                    try await outbound.write(.message(.hello(Hello(client: clientName, pid: getpid())), requestID: 0))
                } catch {
                    helloFailure = error
                }
                var frames = handshake.makeAsyncIterator()
                let first = try? await frames.next()
                guard let reply = first ?? nil else {
                    throw PasteboardError.connectionLost(
                        "the daemon closed the connection during the handshake" + (helloFailure.map { " (\($0))" } ?? "")
                    )
                }
                let welcome: Welcome
                switch try reply.decodeMessage() {
                case .welcome(let value): welcome = value
                case .error(let error): throw PasteboardError.daemon(error)
                default: throw PasteboardError.connectionLost("the daemon did not answer hello with welcome")
                }
                guard welcome.version == ProtocolVersion.current else {
                    throw PasteboardError.daemon(ProtocolError(
                        .versionMismatch,
                        "pasteboardd speaks protocol version \(welcome.version), this client \(ProtocolVersion.current)"
                    ))
                }
                let connection = PasteboardConnection(outbound: outbound, router: router, welcome: welcome)
                let result = try await body(connection)
                outbound.finish()
                return result
            }
        }
    }

    private static func connect(_ socketPath: String) async throws -> NIOAsyncChannel<Frame, Frame> {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(unixDomainSocketPath: socketPath) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel.framed(channel, maxFrameLength: ProtocolLimits.defaultMaxFrameLength)
                }
            }
    }

    /// Starts a request: allocates its id and the stream of frames the daemon sends for it.
    /// `window` receives the daemon's credit when the request uploads data.
    func openRequest(window: SendWindow? = nil) -> (id: UInt32, frames: AsyncThrowingStream<Frame, any Error>) {
        let id = nextRequestID.add(1, ordering: .relaxed).oldValue
        return (id, router.open(id, window: window))
    }

    /// Forgets a request (frames still arriving for it are dropped).
    func closeRequest(_ id: UInt32) {
        router.close(id)
    }

    /// Sends a control message on request `id`.
    func send(_ message: Message, on id: UInt32) async throws {
        do {
            try await outbound.write(.message(message, requestID: id))
        } catch {
            throw PasteboardError.connectionLost("\(error)")
        }
    }

    /// Sends a data frame on request `id`.
    func sendData(_ bytes: ByteBuffer, on id: UInt32, end: Bool) async throws {
        do {
            try await outbound.write(.data(bytes, requestID: id, end: end))
        } catch {
            throw PasteboardError.connectionLost("\(error)")
        }
    }

    /// The largest data payload this connection may put in one frame.
    var chunkLimit: Int {
        min(ProtocolLimits.preferredChunkSize, welcome.maxFrameLength) - ProtocolLimits.headerLength
    }
}

/// Hands each inbound frame to the request it belongs to; credit goes straight to send windows.
final class FrameRouter: Sendable {
    private struct Route {
        var continuation: AsyncThrowingStream<Frame, any Error>.Continuation
        var window: SendWindow?
    }

    private let routes = Mutex<[UInt32: Route]>([:])
    private let closedError = Mutex<(any Error)?>(nil)

    func open(_ id: UInt32, window: SendWindow?) -> AsyncThrowingStream<Frame, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Frame.self)
        let failure = routes.withLock { routes -> (any Error)? in
            if let error = closedError.withLock({ $0 }) { return error }
            routes[id] = Route(continuation: continuation, window: window)
            return nil
        }
        if let failure {
            continuation.finish(throwing: failure)
            window?.fail(failure)
        }
        return stream
    }

    func close(_ id: UInt32) {
        let route = routes.withLock { $0.removeValue(forKey: id) }
        route?.continuation.finish()
        route?.window?.fail(CancellationError())
    }

    func route(_ frame: Frame) {
        guard let route = routes.withLock({ $0[frame.requestID] }) else { return }
        if frame.kind == .message, let window = route.window,
           case .credit(let credit)? = try? frame.decodeMessage() {
            window.grant(credit.bytes)
            return
        }
        route.continuation.yield(frame)
    }

    func closeAll(_ error: any Error) {
        let all = routes.withLock { routes -> [Route] in
            closedError.withLock { if $0 == nil { $0 = error } }
            defer { routes = [:] }
            return Array(routes.values)
        }
        for route in all {
            route.continuation.finish(throwing: error)
            route.window?.fail(error)
        }
    }
}

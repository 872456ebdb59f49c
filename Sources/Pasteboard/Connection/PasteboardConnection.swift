#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
internal import NIOCore
internal import NIOPosix
package import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes
import Synchronization

/// A handshaken connection to `pasteboardd`, carrying any number of concurrent requests.
///
/// Use `withConnection(...)`: the connection lives for the closure's duration, then closes.
public final class PasteboardConnection: Sendable {
    /// What the daemon said in its `welcome`.
    package let welcome: Welcome

    /// The daemon's process id, as its `welcome` gave it (for a log line, or to tell a restarted
    /// daemon from the one connected to before).
    public var daemonProcessID: Int32 { welcome.pid }

    /// The daemon's name and release, for humans ("pasteboardd 0.9").
    public var daemonDescription: String { welcome.daemon }

    private let outbox: FrameOutbox
    private let router: FrameRouter
    private let nextRequestID = Atomic<UInt32>(1)
    /// Set once `withConnection`'s body has returned and the connection closed: a connection (or
    /// a `Pasteboard` on it) kept beyond the body says so at its next use, instead of reporting
    /// a closed channel.
    private let bodyReturned = Atomic<Bool>(false)
    /// What a use after `bodyReturned` throws.
    static let usedAfterBody = "the connection was closed when the body of withConnection returned: use it only inside that body"
    /// The promised representations this connection serves.
    let promises = PromiseServer()
    private let declaredTypes: [TypeDeclaration]
    private let cachedRegistry = Mutex<TypeRegistry?>(nil)
    /// Whether the hand-off socket is attached (see `HandoffAttachment`).
    private let handoff = Mutex<HandoffAttachment>(.untried)

    /// The thread this connection's frames arrive on, as a task executor.
    ///
    /// A task that makes many small requests in a row runs fastest preferring it
    /// (`withTaskExecutorPreference(connection.taskExecutor) { … }`): each answer then resumes
    /// the task on the thread that read it, where otherwise a worker thread must be woken for
    /// each. Such a task must not block (a synchronous read of a pipe, a long computation): the
    /// connections that share the thread wait meanwhile.
    public let taskExecutor: any TaskExecutor

    private init(
        outbox: FrameOutbox, router: FrameRouter, welcome: Welcome, declaredTypes: [TypeDeclaration],
        taskExecutor: any TaskExecutor
    ) {
        self.taskExecutor = taskExecutor
        self.outbox = outbox
        self.router = router
        self.welcome = welcome
        self.declaredTypes = declaredTypes
    }

    /// The types this process knows: built-in, the user's `types.d`, and those declared at connect,
    /// with shared-mime-info for undeclared MIME types. Loaded on first use.
    public var registry: TypeRegistry {
        cachedRegistry.withLock { cached in
            if let cached { return cached }
            let environment = ProcessEnvironment.current()
            var registry = TypeRegistry.loading(environment: environment).registry
            registry = registry.adding(declaredTypes.filter { registry.declaration(for: $0.identifier) != $0 }, source: "declared").registry
            cached = registry
            return registry
        }
    }

    /// Attaches the hand-off socket over which the daemon passes the sockets of direct transfers,
    /// the first time; returns it, or nil when the daemon offers none or it is not the local
    /// daemon's. A source attaches it before it registers a promise; a destination when the
    /// daemon asks (`attach`).
    @discardableResult
    func attachHandoff() -> HandoffChannel? {
        handoff.withLock { $0.attach(offeredBy: welcome) }
    }

    /// The hand-off socket if it has been attached; nil otherwise (nothing is tried).
    var attachedHandoff: HandoffChannel? {
        handoff.withLock { $0.channel }
    }

    /// Connects to the daemon at `socketPath` (starting it first when `autoStart` and nothing
    /// listens, unless `$PASTEBOARD_NO_AUTOSTART` is set), checks that the socket is this user's
    /// (else throws `PasteboardError.untrustedSocket` having sent nothing; see `SocketTrust`),
    /// performs the handshake as `clientName`,
    /// declares `types` (the app's own type declarations; a clash with another declaration is an
    /// error), runs `body`, then closes the connection. `app` names the application the client
    /// belongs to (default: `clientName`): restricted drag sessions and local contexts are
    /// shared only between connections of one application.
    ///
    /// The daemon closes a connection that stays idle (no request in flight, no promise on a
    /// pasteboard) past its idle timeout, ten minutes by default: hold one only while working,
    /// or use `LiveSource` to keep items on a pasteboard across a daemon restart.
    ///
    /// While the connection is open it serves the promised representations its `setItems`
    /// registered. When `body` returns and some are still on a pasteboard, the connection first
    /// relinquishes them: the daemon captures their data within its budget before the close.
    ///
    /// The connection is for the body only: one kept after it returns (a `Pasteboard` on it,
    /// say) throws `PasteboardError.connectionLost` at its next use, saying so.
    ///
    /// Callable from any isolation: `body` runs on the caller's (`isolation`, which defaults to
    /// it), so a `@MainActor` caller's closure may use its state, and so does a closure formed
    /// in a `nonisolated(nonsending)` helper of the app's that an actor calls (the connection's
    /// own I/O runs on its event loop).
    public static func withConnection<Result: Sendable>(
        socketPath: String = PasteboardConnection.defaultSocketPath,
        clientName: String,
        app: String? = nil,
        declaring types: [TypeDeclaration] = [],
        autoStart: Bool = true,
        isolation: isolated (any Actor)? = #isolation,
        _ body: nonisolated(nonsending) (PasteboardConnection) async throws -> Result
    ) async throws -> Result {
        // A derived path in a directory another user owns or may write is refused before connecting
        // and before starting a daemon there (see `SocketTrust`).
        try SocketTrust.checkDirectory(ofSocket: socketPath)
        let (daemonRequests, daemonRequestSink) = AsyncStream.makeStream(of: FrameRouter.DaemonRequest.self)
        let router = FrameRouter(daemonRequests: daemonRequestSink)
        // Open before connecting: a daemon that refuses us (over its connection limit) answers at
        // once, and a frame for a request not yet open would be dropped.
        let handshake = router.open(0, window: nil)
        let connected: FramedChannel
        let peer: EventLoopFuture<pasteboard_ucred>
        do {
            (connected, peer) = try await connect(socketPath, router: router)
        } catch let first {
            guard autoStart, !DaemonLauncher.autoStartDisabled, DaemonLauncher.isNobodyListening(first) else {
                throw PasteboardError.daemonUnreachable(socketPath: socketPath, reason: DaemonLauncher.describe(first))
            }
            try await DaemonLauncher.start(socketPath: socketPath)
            (connected, peer) = try await DaemonLauncher.waitForDaemon(socketPath: socketPath) { try await connect(socketPath, router: router) }
        }
        // The connection's own tasks run on the channel's loop: each frame reaches its request
        // without waking another thread. `body` runs where the caller's task runs (see `taskExecutor`).
        let executor = EventLoopTaskExecutor(connected.channel.channel.eventLoop)
        let outbox = connected.outbox
        // Each closure below captures `isolation`, so it runs there too, and `body` with it.
        return try await connected.channel.executeThenClose(isolation: isolation) { inbound, outbound in
            _ = isolation
            // Nothing has been written yet: a socket of another user gets no hello.
            try await SocketTrust.checkPeer(peer, socketPath: socketPath)
            return try await withThrowingTaskGroup(of: Void.self, isolation: isolation) { group in
                _ = isolation
                group.addTask(executorPreference: executor) {
                    let failure: any Error
                    do {
                        // The router took every frame as it arrived; the stream only ends, or fails.
                        for try await frame in inbound { router.route(frame) }
                        failure = PasteboardError.connectionLost("the daemon closed the connection")
                    } catch {
                        // Cancelled (Ctrl-C during a load) is a cancellation for every request, not a lost connection.
                        failure = Self.sendFailure(error)
                    }
                    router.closeAll(failure)
                    daemonRequestSink.finish()
                }
                defer { group.cancelAll() }
                // A daemon that refuses us (over its connection limit) may answer and close before
                // our hello is written: its error frame, if it arrived, says more than the failed write.
                var helloFailure: (any Error)?
                do {
                    try await outbox.send(DaemonHandshake.hello(client: clientName, app: app))
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
                let welcome = try DaemonHandshake.welcome(from: reply)
                router.setWindow(welcome.window)
                let connection = PasteboardConnection(
                    outbox: outbox, router: router, welcome: welcome, declaredTypes: types, taskExecutor: executor)
                group.addTask(executorPreference: executor) {
                    for await request in daemonRequests { connection.handle(request) }
                    connection.promises.cancelAll()
                    connection.promises.wakeAll()
                }
                defer { connection.bodyReturned.store(true, ordering: .releasing) }
                if !types.isEmpty { try await connection.declare(types) }
                let result = try await body(connection)
                if connection.promises.hasPromises { try? await connection.relinquish() }
                outbound.finish()
                return result
            }
        }
    }

    /// Why the connection to the daemon ended, once it has (the daemon closed it, or it broke);
    /// nil while it is open.
    public var lostReason: String? {
        router.closeReason
    }

    /// Adds type declarations to the daemon's registry (for as long as the daemon runs).
    public func declare(_ types: [TypeDeclaration]) async throws {
        let (id, frames) = openRequest()
        defer { closeRequest(id) }
        try await send(.declare(DeclareRequest(types: types)), on: id)
        for try await frame in frames where frame.kind == .message {
            if case .error(let error) = try frame.decodeMessage() { throw PasteboardError.daemon(error) }
            return
        }
        throw PasteboardError.connectionLost("the daemon closed the connection before answering 'declare'")
    }

    /// Hands the daemon the data of every representation this connection still promises (within
    /// the daemon's capture budget per pasteboard), serving its requests, and returns once it has
    /// taken what fits. Promises that did not fit become unavailable. Called when the connection closes.
    public func relinquish() async throws {
        let (id, frames) = openRequest()
        defer { closeRequest(id) }
        try await send(.relinquish, on: id)
        for try await frame in frames where frame.kind == .message {
            if case .error(let error) = try frame.decodeMessage() { throw PasteboardError.daemon(error) }
            return
        }
        throw PasteboardError.connectionLost("the daemon closed the connection before answering 'relinquish'")
    }

    /// Returns once none of this connection's promises is on a pasteboard any more (replaced or
    /// cleared), or the connection closed. Returns at once if there are none.
    public func waitUntilPromisesReleased() async {
        await promises.waitUntilReleased()
    }

    private func handle(_ request: FrameRouter.DaemonRequest) {
        switch request {
        case .produce(let produce, let id, let frames, let window):
            promises.serve(produce, id: id, frames: frames, window: window, connection: self)
        case .released(let numbers):
            promises.release(numbers)
        }
    }

    /// A framed channel to `socketPath` whose frames `router` routes as they are decoded, on the
    /// channel's loop (its inbound stream then only ends, or fails with the connection), and its
    /// peer's credentials, read as it connected (for `SocketTrust`).
    private static func connect(
        _ socketPath: String, router: FrameRouter
    ) async throws -> (channel: FramedChannel, peer: EventLoopFuture<pasteboard_ucred>) {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.recvAllocator, value: FramedReading.allocator)
            .connect(unixDomainSocketPath: socketPath) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let peer = PeerCredentialsReader(eventLoop: channel.eventLoop)
                    try channel.pipeline.syncOperations.addHandler(peer)
                    let framed = try FramedChannel(channel, maxFrameLength: ProtocolLimits.defaultMaxFrameLength, routingTo: router.route)
                    return (framed, peer.credentials)
                }
            }
    }

    /// Starts a request: allocates its id and the stream of frames the daemon sends for it.
    /// `window` receives the daemon's credit when the request uploads data.
    func openRequest(window: SendWindow? = nil) -> (id: UInt32, frames: RequestFrames) {
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
            try await outbox.send(.message(message, requestID: id))
        } catch {
            throw sendFailure(error)
        }
    }

    /// Sends `cancel` on request `id` from a task of its own, so it goes out even when the
    /// calling task is already cancelled.
    func cancelInBackground(_ id: UInt32) {
        Task { try? await self.send(.cancel, on: id) }
    }

    /// Sends `frames` in order with one flush: one system call where the socket takes them all.
    func send(_ frames: [Frame]) async throws {
        do {
            try await outbox.send(frames)
        } catch {
            throw sendFailure(error)
        }
    }

    /// Sends a data frame on request `id`.
    func sendData(_ bytes: ByteBuffer, on id: UInt32, end: Bool) async throws {
        do {
            try await outbox.send(.data(bytes, requestID: id, end: end))
        } catch {
            throw sendFailure(error)
        }
    }

    /// A failed send or receive: in a cancelled task it is a cancellation (Ctrl-C during a
    /// load), not a lost connection.
    private static func sendFailure(_ error: any Error) -> any Error {
        error is CancellationError || Task.isCancelled ? CancellationError() : PasteboardError.connectionLost(ErrorMessage.text(for: error))
    }

    /// `sendFailure(_:)`, saying so when the connection was used after its body returned.
    private func sendFailure(_ error: any Error) -> any Error {
        bodyReturned.load(ordering: .acquiring) ? PasteboardError.connectionLost(Self.usedAfterBody) : Self.sendFailure(error)
    }

    /// The largest data payload this connection may put in one frame.
    var chunkLimit: Int {
        ProtocolLimits.dataChunkLimit(maxFrameLength: welcome.maxFrameLength)
    }
}

/// Hands each inbound frame to the request it belongs to; credit goes straight to send windows.
/// The daemon's own requests (`produce`, `released`) go to `daemonRequests`, with the route for
/// a produce's later frames opened before any of them can arrive.
final class FrameRouter: Sendable {
    /// A request the daemon started.
    enum DaemonRequest: Sendable {
        case produce(ProduceRequest, id: UInt32, frames: RequestFrames, window: SendWindow)
        case released([Int])
    }

    private struct Route {
        var frames: RequestFrames
        var window: SendWindow?
    }

    private let routes = Mutex<[UInt32: Route]>([:])
    private let closedError = Mutex<(any Error)?>(nil)
    private let daemonRequests: AsyncStream<DaemonRequest>.Continuation
    private let window = Atomic<Int>(ProtocolLimits.defaultWindow)

    init(daemonRequests: AsyncStream<DaemonRequest>.Continuation) {
        self.daemonRequests = daemonRequests
    }

    /// Sets the flow-control window announced in `welcome` (the initial credit of every produce).
    func setWindow(_ bytes: Int) {
        window.store(bytes, ordering: .relaxed)
    }

    func open(_ id: UInt32, window: SendWindow?) -> RequestFrames {
        let frames = RequestFrames()
        let failure = routes.withLock { routes -> (any Error)? in
            if let error = closedError.withLock({ $0 }) { return error }
            routes[id] = Route(frames: frames, window: window)
            return nil
        }
        if let failure {
            frames.finish(throwing: failure)
            window?.fail(failure)
        }
        return frames
    }

    func close(_ id: UInt32) {
        let route = routes.withLock { $0.removeValue(forKey: id) }
        route?.frames.finish()
        route?.window?.fail(CancellationError())
    }

    func route(_ frame: Frame) {
        guard let route = routes.withLock({ $0[frame.requestID] }) else {
            if frame.requestID >= ProtocolLimits.daemonRequestIDBase, frame.kind == .message {
                startDaemonRequest(frame)
            }
            return
        }
        if frame.kind == .message, let window = route.window, Self.mayBeCredit(frame.payload),
           case .credit(let credit)? = try? frame.decodeMessage() {
            window.grant(credit.bytes)
            return
        }
        route.frames.yield(frame)
    }

    /// False when `json` cannot be a `credit` message: it holds neither the word nor a backslash
    /// (an escape could spell it). Spares decoding every answer twice, here and by its request.
    private static func mayBeCredit(_ json: ByteBuffer) -> Bool {
        let word: StaticString = "credit"
        let count = word.utf8CodeUnitCount
        return json.withUnsafeReadableBytes { bytes in
            if bytes.contains(UInt8(ascii: "\\")) { return true }
            guard bytes.count >= count else { return false }
            for start in 0...(bytes.count - count) where bytes[start] == word.utf8Start[0] {
                if (1..<count).allSatisfy({ bytes[start + $0] == word.utf8Start[$0] }) { return true }
            }
            return false
        }
    }

    private func startDaemonRequest(_ frame: Frame) {
        switch try? frame.decodeMessage() {
        case .produce(let request):
            let window = SendWindow(initialCredit: window.load(ordering: .relaxed))
            let frames = open(frame.requestID, window: window)
            daemonRequests.yield(.produce(request, id: frame.requestID, frames: frames, window: window))
        case .released(let released):
            daemonRequests.yield(.released(released.promises))
        default:
            break  // a late frame of a produce that already ended
        }
    }

    /// The error every request failed with when the connection ended; nil while it is open.
    var closeReason: String? {
        closedError.withLock { $0 }.map { error in
            if case PasteboardError.connectionLost(let reason) = error { reason } else { ErrorMessage.text(for: error) }
        }
    }

    func closeAll(_ error: any Error) {
        let all = routes.withLock { routes -> [Route] in
            closedError.withLock { if $0 == nil { $0 = error } }
            defer { routes = [:] }
            return Array(routes.values)
        }
        for route in all {
            route.frames.finish(throwing: error)
            route.window?.fail(error)
        }
    }
}

import Logging
import NIOCore
import PasteboardJSON
import PasteboardProtocol
import PasteboardTypes

/// One client's connection: the handshake, then its requests until it closes.
///
/// Writes are assembled in the inbound loop (their bytes are consumed as they arrive);
/// reads and watches run as tasks, so one connection carries any number of them at once.
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
                    let hello = try Self.hello(in: first)
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
                    let source = SourceConnection(
                        clientName: hello.client, pid: peerPID, app: hello.app, writer: writer, window: configuration.window, handoff: endpoint)
                    watchdog.noteHandshake(source: source)
                    defer { source.disconnect() }
                    do {
                        try await serve(frames: frames, requests: requests, watchdog: watchdog, writer: writer, source: source, logger: logger)
                    } catch {
                        await sourceLeft(source)
                        throw error
                    }
                    await sourceLeft(source)
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

    /// The first frame's `hello`, when it is one the daemon speaks.
    ///
    /// A first frame that is no `hello` (a data frame, another request id, another or an unknown
    /// `op`) is `handshake-required`; one whose `op` is `hello` but whose fields are wrong (a
    /// required one missing, a wrong type), or that is no JSON object at all, is
    /// `malformed-message`, naming the field. Both end the connection.
    private static func hello(in frame: Frame) throws -> Hello {
        let required = ProtocolError(.handshakeRequired, "the first frame must be a hello message on request id 0")
        guard frame.kind == .message, frame.requestID == 0 else { throw required }
        let message: Message
        switch Result(catching: { () throws(ProtocolError) in try frame.decodeMessage() }) {
        case .success(let decoded): message = decoded
        case .failure(let error):
            // Malformed is for a hello (or no JSON object with an op at all); any other op, known
            // or not and whatever its fields, is no handshake.
            guard error.code != .unknownMessage else { throw required }
            if let op = Self.op(of: frame.payload), op != "hello" { throw required }
            throw error
        }
        guard case .hello(let hello) = message else { throw required }
        guard hello.version == ProtocolVersion.current else {
            throw ProtocolError(
                .versionMismatch,
                "the daemon speaks protocol version \(ProtocolVersion.current), the client \(hello.version)"
            )
        }
        return hello
    }

    /// The `op` of a message payload that is a JSON object with a string `op`; nil otherwise.
    private static func op(of payload: ByteBuffer) -> String? {
        guard case .object(let members)? = try? JSONValue.parse(payload.readableBytesView), case .string(let op)? = members["op"] else {
            return nil
        }
        return op
    }

    /// Answers the `hello` with `welcome`, offering the hand-off socket when `endpoint` is given.
    private func welcome(writer: FrameWriter, handoff endpoint: HandoffEndpoint?, configuration: DaemonConfiguration) async throws {
        let welcome = Welcome(
            daemon: daemonName, pid: daemonPID,
            maxFrameLength: configuration.maxFrameLength, window: configuration.window,
            handoff: endpoint.flatMap { endpoint in handoff?.offer(for: endpoint) }
        )
        try await writer.send(.welcome(welcome), on: 0)
    }

    /// The connection ended: produces in flight fail, and what it still promised becomes unavailable.
    private func sourceLeft(_ source: SourceConnection) async {
        source.disconnect()
        await store.sourceGone(source) { owned in
            "\(source) disconnected without handing over \(owned.type) (item \(owned.item) of '\(owned.pasteboard)')"
        }
    }

    nonisolated(nonsending) private func serve(
        frames: FrameInbox,
        requests: RequestTable, watchdog: ConnectionWatchdog,
        writer: FrameWriter,
        source: SourceConnection,
        logger: Logger
    ) async throws {
        var writes: [UInt32: WriteAssembly] = [:]
        defer { _ = writes }
        do {
            while let frame = try await frames.next() {
                watchdog.noteActivity()
                let id = frame.requestID
                if id >= ProtocolLimits.daemonRequestIDBase {
                    // Answers to the daemon's own requests (`produce`).
                    if try source.receive(frame) || frame.kind == .data { continue }
                    switch Result(catching: { () throws(ProtocolError) in try frame.decodeMessage() }) {
                    case .success(.error), .success(.size), .success(.credit), .success(.cancel):
                        continue  // a late answer to a produce that already ended
                    case .success(let message):
                        try await writer.send(.error(ProtocolError(.invalidArgument, "request ids from 0x80000000 up are the daemon's; '\(message.op)' needs a smaller one")), on: id)
                    case .failure(let error):
                        try await writer.send(.error(error), on: id)
                    }
                    continue
                }
                switch frame.kind {
                case .data:
                    guard let assembly = writes[id] else { continue }  // data of an ended request is discarded
                    switch Result(catching: { () throws(ProtocolError) in try assembly.receive(frame) }) {
                    case .failure(let error):
                        writes[id] = nil
                        await assembly.abort()
                        try await writer.send(.error(error), on: id)
                        continue
                    case .success(let credit):
                        if let credit { try await writer.send(.credit(Credit(bytes: credit)), on: id) }
                    }
                    if assembly.isComplete {
                        writes[id] = nil
                        try await complete(assembly, id: id, requests: requests, writer: writer, source: source, logger: logger)
                    }
                case .message:
                    let inFlight = writes[id] != nil || requests.contains(id)
                    let message: Message
                    switch Result(catching: { () throws(ProtocolError) in try frame.decodeMessage() }) {
                    case .success(let decoded): message = decoded
                    case .failure(let error) where inFlight:
                        // The request in flight still owes its own terminal answer: a second one on
                        // the same id would be ambiguous, so the connection ends instead.
                        throw ProtocolError(error.code, "request \(id) in flight: \(error.message)")
                    case .failure(let error):
                        try await writer.send(.error(error), on: id)
                        continue
                    }
                    if id == 0 {
                        try await writer.send(.error(ProtocolError(.unexpectedMessage, "request id 0 is only for the handshake")), on: 0)
                        continue
                    }
                    switch message {
                    case .credit(let credit):
                        requests.grant(credit.bytes, to: id)
                        continue
                    case .cancel:
                        if let assembly = writes.removeValue(forKey: id) {
                            await assembly.abort()
                            try await writer.send(.error(ProtocolError(.cancelled, "write cancelled")), on: id)
                        } else {
                            requests.cancel(id)
                        }
                        continue
                    default:
                        break
                    }
                    if inFlight {
                        throw ProtocolError(.duplicateRequest, "'\(message.op)' on request id \(id), which is already in flight")
                    }
                    try await start(message, id: id, writes: &writes, requests: requests, writer: writer, source: source, logger: logger)
                }
            }
        } catch {
            source.disconnect()
            await requests.cancelAllAndWait()
            throw error
        }
        source.disconnect()  // before the requests stop, so they see the client went away
        await requests.cancelAllAndWait()
    }

    /// Starts a new request.
    nonisolated(nonsending) private func start(
        _ message: Message, id: UInt32,
        writes: inout [UInt32: WriteAssembly], requests: RequestTable,
        writer: FrameWriter, source: SourceConnection, logger: Logger
    ) async throws {
        let configuration = liveConfiguration.current
        // Credit for the bytes a write stores on disk is sent when the disk has them.
        let sendCredit: @Sendable (Int) async -> Void = { bytes in try? await writer.send(.credit(Credit(bytes: bytes)), on: id) }
        switch message {
        case .write(let request):
            try await assemble(id: id, writes: &writes, requests: requests, writer: writer, source: source, logger: logger) {
                () throws(ProtocolError) in
                try WriteAssembly(request, source: source, registry: store.registry, configuration: configuration,
                                  place: store.spoolPlace(forPasteboard: request.pasteboard), sendCredit: sendCredit)
            }
        case .drag(let request):
            try await assemble(id: id, writes: &writes, requests: requests, writer: writer, source: source, logger: logger) {
                () throws(ProtocolError) in
                try WriteAssembly(.drag(request), items: request.items, source: source, registry: store.registry, configuration: configuration,
                                  place: store.scratchSpoolPlace, sendCredit: sendCredit)
            }
        case .add(let request):
            try await assemble(id: id, writes: &writes, requests: requests, writer: writer, source: source, logger: logger) {
                () throws(ProtocolError) in
                try WriteAssembly(.add(session: request.session), items: request.items, source: source, registry: store.registry, configuration: configuration,
                                  place: store.scratchSpoolPlace, sendCredit: sendCredit)
            }
        case .sessions(let request):
            do {
                let sessions = if let session = request.session {
                    [try await store.sessionInfo(session, for: source)]
                } else {
                    await store.sessionList(for: source)
                }
                try await writer.send(.sessionList(SessionList(sessions: sessions)), on: id)
            } catch let error as ProtocolError {
                try await writer.send(.error(error), on: id)
            }
        case .drop(let request):
            do {
                let reply = try await store.drop(request, by: source)
                logger.info("drag session proposal", metadata: [
                    "session.id": "\(request.session.map(String.init) ?? "current")", "operation": "\(request.operation.rawValue)",
                ])
                try await writer.send(reply, on: id)
            } catch let error as ProtocolError {
                try await writer.send(.error(error), on: id)
            }
        case .finish(let request):
            do {
                try await store.finish(request, by: source)
                logger.info("drag session finished", metadata: ["session.id": "\(request.session)", "success": "\(request.success)"])
                try await writer.send(.ok(OK()), on: id)
            } catch let error as ProtocolError {
                try await writer.send(.error(error), on: id)
            }
        case .list(let request):
            if let failure = PasteboardName.validationFailure(request.pasteboard) {
                try await writer.send(.error(ProtocolError(.invalidArgument, failure)), on: id)
                return
            }
            try await writer.send(.items(await store.summary(of: request.pasteboard)), on: id)
        case .clear(let request):
            if let failure = PasteboardName.validationFailure(request.pasteboard) {
                try await writer.send(.error(ProtocolError(.invalidArgument, failure)), on: id)
                return
            }
            do {
                let changeCount = try await store.replaceItems(of: request.pasteboard, with: [], ifChangeCount: request.ifChangeCount)
                logger.info("pasteboard cleared", metadata: ["pasteboard": "\(request.pasteboard)", "changeCount": "\(changeCount)"])
                try await writer.send(.ok(OK(changeCount: changeCount)), on: id)
            } catch let error as ProtocolError {
                logger.error("pasteboard not cleared", metadata: ["pasteboard": "\(request.pasteboard)", "reason": "\(error.message)"])
                try await writer.send(.error(error), on: id)
            }
        case .declare(let request):
            do {
                let declared = try store.declare(request.types, app: source.app)
                logger.info("types declared", metadata: [
                    "app": "\(source.app)", "added": "\(declared.added.map(\.rawValue))", "replaced": "\(declared.replaced.map(\.rawValue))",
                ])
                try await writer.send(.ok(OK()), on: id)
            } catch let error as ProtocolError {
                logger.notice("types not declared", metadata: ["app": "\(source.app)", "reason": "\(error.message)"])
                try await writer.send(.error(error), on: id)
            }
        case .types(let request):
            do {
                try await writer.send(.typeList(try store.typeList(from: request.start ?? 0, frameLimit: configuration.maxFrameLength)), on: id)
            } catch let error as ProtocolError {
                try await writer.send(.error(error), on: id)
            }
        case .relinquish:
            let capture = OwnerCapture(source: source, store: store, budget: configuration.captureBudget, logger: logger)
            _ = requests.reserve(id, window: nil, stop: {})
            requests.attach(Task(executorPreference: executor) {
                await capture.run()
                requests.remove(id)
                try? await writer.send(.ok(OK()), on: id)
            }, to: id)
        case .read(let request):
            let control = TransferControl(window: SendWindow(initialCredit: configuration.window))
            let limit = configuration.maxLoadsPerConnection
            guard requests.reserve(id, window: control.window, isLoad: true, limit: limit, stop: { control.stop(ProtocolError(.cancelled, "read cancelled")) }) else {
                try await writer.send(.error(ProtocolError(
                    .limitReached, "\(limit) loads are already in flight on this connection (pasteboardd --max-loads-per-connection)")), on: id)
                return
            }
            let transfer = ReadTransfer(
                request: request, id: id, control: control, store: store, writer: writer,
                chunkLimit: min(ProtocolLimits.preferredChunkSize, configuration.maxFrameLength) - ProtocolLimits.headerLength,
                reader: source,
                release: { requests.remove(id) }
            )
            if await transfer.answerAtOnce() { return }
            requests.attach(Task(executorPreference: executor) { await transfer.run() }, to: id)
        case .watch(let request):
            if let failure = PasteboardName.validationFailure(request.pasteboard) {
                try await writer.send(.error(ProtocolError(.invalidArgument, failure)), on: id)
                return
            }
            let (current, changes, stop) = await store.watch(request.pasteboard)
            _ = requests.reserve(id, window: nil, stop: stop)
            requests.attach(Task(executorPreference: executor) {
                do {
                    try await writer.send(.changed(current), on: id)
                    for await change in changes { try await writer.send(.changed(change), on: id) }
                } catch {
                    requests.remove(id)
                    return
                }
                requests.remove(id)  // before the terminal frame: the id is free once the client sees it
                try? await writer.send(.error(ProtocolError(.cancelled, "watch cancelled")), on: id)
            }, to: id)
        case .history(let request):
            do {
                let list = try await store.historyList(from: request.start ?? 0, frameLimit: configuration.maxFrameLength)
                try await writer.send(.historyList(list), on: id)
            } catch let error as ProtocolError {
                try await writer.send(.error(error), on: id)
            }
        case .historySearch(let request):
            do {
                let list = try await store.searchHistory(request.text, from: request.start ?? 0, frameLimit: configuration.maxFrameLength)
                try await writer.send(.historyList(list), on: id)
            } catch let error as ProtocolError {
                try await writer.send(.error(error), on: id)
            }
        case .historyRestore(let request):
            do {
                let changeCount = try await store.restoreHistoryEntry(request.index)
                logger.info("history entry restored", metadata: ["index": "\(request.index)", "changeCount": "\(changeCount)"])
                try await writer.send(.ok(OK(changeCount: changeCount)), on: id)
            } catch let error as ProtocolError {
                try await writer.send(.error(error), on: id)
            }
        case .historyClear:
            await store.clearHistory()
            logger.info("history cleared")
            try await writer.send(.ok(OK()), on: id)
        case .hello, .welcome, .error, .ok, .representation, .attach, .items, .changed, .credit, .cancel,
             .progress, .produce, .size, .released, .session, .sessionList, .proposed, .dropped, .ended, .historyList, .typeList:
            try await writer.send(.error(ProtocolError(.unexpectedMessage, "'\(message.op)' is not a request a client may send")), on: id)
        }
    }

    /// Validates a request whose items may carry eager bytes; completes it at once when none
    /// are expected, else keeps its assembly until the bytes have arrived.
    nonisolated(nonsending) private func assemble(
        id: UInt32, writes: inout [UInt32: WriteAssembly], requests: RequestTable,
        writer: FrameWriter, source: SourceConnection, logger: Logger,
        _ make: () throws(ProtocolError) -> WriteAssembly
    ) async throws {
        switch Result(catching: make) {
        case .failure(let error):
            try await writer.send(.error(error), on: id)
        case .success(let assembly) where assembly.isComplete:  // nothing to wait for: no eager bytes
            try await complete(assembly, id: id, requests: requests, writer: writer, source: source, logger: logger)
        case .success(let assembly):
            writes[id] = assembly
        }
    }

    /// All of a request's items have arrived: write the pasteboard, or begin or grow a drag session.
    nonisolated(nonsending) private func complete(
        _ assembly: WriteAssembly, id: UInt32, requests: RequestTable,
        writer: FrameWriter, source: SourceConnection, logger: Logger
    ) async throws {
        let items: [StoredItem]
        do {
            items = try await assembly.finish()
        } catch {
            if case .pasteboard(let name, _, _) = assembly.target {
                logger.error("pasteboard not written", metadata: ["pasteboard": "\(name)", "reason": "\(error.message)"])
            }
            try await writer.send(.error(error), on: id)
            return
        }
        switch assembly.target {
        case .pasteboard(let name, let expire, let ifChangeCount):
            do {
                let changeCount = try await store.replaceItems(
                    of: name, with: items, ifChangeCount: ifChangeCount, conflict: .fail, recordsHistory: expire == nil,
                    expiringAfter: expire)
                // Debug: one line per copy, which a shell loop makes thousands of.
                logger.debug("pasteboard written", metadata: [
                    "pasteboard": "\(name)", "items": "\(items.count)", "changeCount": "\(changeCount)",
                    "sensitive": "\(items.contains(where: \.isSensitive))",
                ])
                try await writer.send(.ok(OK(changeCount: changeCount)), on: id)
            } catch let error as ProtocolError {
                logger.error("pasteboard not written", metadata: ["pasteboard": "\(name)", "reason": "\(error.message)"])
                await store.notifyReleased(items)
                try await writer.send(.error(error), on: id)
            }
        case .drag(var request):
            request.timeout = request.timeout ?? liveConfiguration.current.sessionTimeout
            let participation = await store.beginSession(request, items: items, source: source)
            logger.info("drag session began", metadata: [
                "session.id": "\(participation.info.id)", "items": "\(items.count)",
                "allow": "\(participation.info.allow.map(\.rawValue))",
            ])
            try await serveParticipation(participation, id: id, requests: requests, writer: writer, source: source)
        case .add(let session):
            do {
                let participation = try await store.addItems(items, to: session, from: source)
                logger.info("items added to drag session", metadata: ["session.id": "\(session)", "items": "\(items.count)"])
                try await serveParticipation(participation, id: id, requests: requests, writer: writer, source: source)
            } catch let error as ProtocolError {
                await store.notifyReleased(items)
                try await writer.send(.error(error), on: id)
            }
        }
    }

    /// Answers a `drag`/`add` with the session, then forwards its events until the terminal `ended`.
    /// The client's `cancel` leaves the session (and abandons it, for the source that began it).
    private func serveParticipation(
        _ participation: PasteboardStore.Participation, id: UInt32, requests: RequestTable,
        writer: FrameWriter, source: SourceConnection
    ) async throws {
        let store = store
        let session = participation.info.id
        _ = requests.reserve(id, window: nil, stop: {
            // Whether the client cancelled or went away is decided now, in the order its frames
            // came, not when the store gets to it (by then a client that cancelled and quit is gone).
            let wentAway = source.isDisconnected
            Task { await store.leave(session, participant: participation.participant, client: source, wentAway: wentAway) }
        })
        requests.attach(Task(executorPreference: executor) {
            do {
                try await writer.send(.session(participation.info), on: id)
                for await event in participation.events {
                    if case .ended = event { requests.remove(id) }
                    try await writer.send(event, on: id)
                }
            } catch {}
            if requests.contains(id) {
                // Left without an end (cancelled): the request still owes its terminal answer.
                requests.remove(id)
                try? await writer.send(.ended(SessionEnd(outcome: .cancelled, message: "left drag session \(session)")), on: id)
            }
        }, to: id)
    }
}

import Logging
import PasteboardProtocol

/// A connection's inbound loop after the handshake: sorts each frame by its request id and
/// kind, and hands each new request to its feature's handler (`PasteboardRequests`,
/// `DragRequests`, `HistoryRequests`, `TypeRequests`, `RelinquishRequest`).
///
/// Frames on the daemon's request ids answer its `produce` requests and go to the client as a
/// promise owner. A write's data frames go to its assembly, consumed as they arrive; once its
/// bytes are all there, the write completes inline, so the writes of one connection apply in
/// the order they were sent. `credit` and `cancel` go to the request in flight they name. Reads,
/// watches, drag sessions and captures run as tasks, so one connection carries any number at once.
struct RequestDemultiplexer: Sendable {
    let context: RequestContext
    let watchdog: ConnectionWatchdog

    private var pasteboards: PasteboardRequests { PasteboardRequests(context: context) }
    private var drags: DragRequests { DragRequests(context: context) }
    private var history: HistoryRequests { HistoryRequests(context: context) }
    private var types: TypeRequests { TypeRequests(context: context) }

    /// Serves `frames` until the client closes the connection (or breaks the protocol: the
    /// error then ends the connection); the requests still running are stopped and awaited,
    /// after the client is marked gone, so they see it went away.
    nonisolated(nonsending) func serve(_ frames: FrameInbox) async throws {
        var writes: [UInt32: WriteAssembly] = [:]
        defer { _ = writes }
        do {
            while let frame = try await frames.next() {
                watchdog.noteActivity()
                if frame.requestID >= ProtocolLimits.daemonRequestIDBase {
                    try await receiveAnswer(frame)
                    continue
                }
                switch frame.kind {
                case .data: try await receiveData(frame, writes: &writes)
                case .message: try await receiveMessage(frame, writes: &writes)
                }
            }
        } catch {
            context.client.disconnect()
            await context.requests.cancelAllAndWait()
            throw error
        }
        context.client.disconnect()  // before the requests stop, so they see the client went away
        await context.requests.cancelAllAndWait()
    }

    /// A frame on one of the daemon's own request ids: an answer to a `produce`.
    nonisolated(nonsending) private func receiveAnswer(_ frame: Frame) async throws {
        let id = frame.requestID
        if try context.client.receive(frame) || frame.kind == .data { return }
        switch Result(catching: { () throws(ProtocolError) in try frame.decodeMessage() }) {
        case .success(.error), .success(.size), .success(.credit), .success(.cancel):
            return  // a late answer to a produce that already ended
        case .success(let message):
            try await context.fail(ProtocolError(.invalidArgument, "request ids from 0x80000000 up are the daemon's; '\(message.op)' needs a smaller one"), on: id)
        case .failure(let error):
            try await context.fail(error, on: id)
        }
    }

    /// A data frame: the next bytes of a write in progress (of an ended request: discarded).
    /// A refused frame aborts the write, its spool first, then answers its error.
    nonisolated(nonsending) private func receiveData(_ frame: Frame, writes: inout [UInt32: WriteAssembly]) async throws {
        let id = frame.requestID
        guard let assembly = writes[id] else { return }
        switch Result(catching: { () throws(ProtocolError) in try assembly.receive(frame) }) {
        case .failure(let error):
            writes[id] = nil
            await assembly.abort()
            try await context.fail(error, on: id)
            return
        case .success(let credit):
            if let credit { try await context.answer(.credit(Credit(bytes: credit)), on: id) }
        }
        if assembly.isComplete {
            writes[id] = nil
            try await complete(assembly, id: id)
        }
    }

    /// A message: credit or cancel for a request in flight, or a new request.
    nonisolated(nonsending) private func receiveMessage(_ frame: Frame, writes: inout [UInt32: WriteAssembly]) async throws {
        let id = frame.requestID
        let inFlight = writes[id] != nil || context.requests.contains(id)
        let message: Message
        switch Result(catching: { () throws(ProtocolError) in try frame.decodeMessage() }) {
        case .success(let decoded): message = decoded
        case .failure(let error) where inFlight:
            // The request in flight still owes its own terminal answer: a second one on
            // the same id would be ambiguous, so the connection ends instead.
            throw ProtocolError(error.code, "request \(id) in flight: \(error.message)")
        case .failure(let error):
            try await context.fail(error, on: id)
            return
        }
        if id == 0 {
            try await context.fail(ProtocolError(.unexpectedMessage, "request id 0 is only for the handshake"), on: 0)
            return
        }
        switch message {
        case .credit(let credit):
            context.requests.grant(credit.bytes, to: id)
            return
        case .cancel:
            if let assembly = writes.removeValue(forKey: id) {
                await assembly.abort()
                try await context.fail(ProtocolError(.cancelled, "write cancelled"), on: id)
            } else {
                context.requests.cancel(id)
            }
            return
        default:
            break
        }
        if inFlight {
            throw ProtocolError(.duplicateRequest, "'\(message.op)' on request id \(id), which is already in flight")
        }
        try await start(message, id: id, writes: &writes)
    }

    /// Hands a new request to its feature's handler.
    nonisolated(nonsending) private func start(_ message: Message, id: UInt32, writes: inout [UInt32: WriteAssembly]) async throws {
        switch message {
        case .write(let request):
            try await assemble(id: id, writes: &writes) { () async throws(ProtocolError) in try await pasteboards.assembly(for: request, id: id) }
        case .read(let request): try await pasteboards.read(request, id: id)
        case .list(let request): try await pasteboards.list(request, id: id)
        case .clear(let request): try await pasteboards.clear(request, id: id)
        case .watch(let request): try await pasteboards.watch(request, id: id)
        case .drag(let request):
            try await assemble(id: id, writes: &writes) { () async throws(ProtocolError) in try await drags.assembly(for: request, id: id) }
        case .add(let request):
            try await assemble(id: id, writes: &writes) { () async throws(ProtocolError) in try await drags.assembly(for: request, id: id) }
        case .sessions(let request): try await drags.sessions(request, id: id)
        case .drop(let request): try await drags.drop(request, id: id)
        case .finish(let request): try await drags.finish(request, id: id)
        case .declare(let request): try await types.declare(request, id: id)
        case .types(let request): try await types.list(request, id: id)
        case .watchTypes: try await types.watch(id: id)
        case .relinquish: RelinquishRequest(context: context).start(id: id)
        case .history(let request): try await history.list(request, id: id)
        case .historySearch(let request): try await history.search(request, id: id)
        case .historyRestore(let request): try await history.restore(request, id: id)
        case .historyClear: try await history.clear(id: id)
        case .hello, .welcome, .error, .ok, .representation, .attach, .items, .changed, .credit, .cancel,
             .progress, .produce, .size, .released, .session, .sessionList, .proposed, .dropped, .ended, .historyList, .typeList,
             .typesChanged:
            try await context.fail(ProtocolError(.unexpectedMessage, "'\(message.op)' is not a request a client may send"), on: id)
        }
    }

    /// Validates a request whose items may carry eager bytes; completes it at once when none
    /// are expected, else keeps its assembly until the bytes have arrived.
    nonisolated(nonsending) private func assemble(
        id: UInt32, writes: inout [UInt32: WriteAssembly], _ make: nonisolated(nonsending) () async throws(ProtocolError) -> WriteAssembly
    ) async throws {
        let assembly: WriteAssembly
        do {
            assembly = try await make()
        } catch {
            return try await context.fail(error, on: id)
        }
        if assembly.isComplete {  // nothing to wait for: no eager bytes
            try await complete(assembly, id: id)
        } else {
            writes[id] = assembly
        }
    }

    /// All of a request's items have arrived: write the pasteboard, or begin or grow a drag session.
    nonisolated(nonsending) private func complete(_ assembly: WriteAssembly, id: UInt32) async throws {
        let items: [StoredItem]
        do {
            items = try await assembly.finish()
        } catch {
            if case .pasteboard(let name, _, _, _) = assembly.target {
                context.logger.error("pasteboard not written", metadata: ["pasteboard": "\(name)", "reason": "\(error.message)"])
            }
            try await context.fail(error, on: id)
            return
        }
        switch assembly.target {
        case .pasteboard(let name, let expire, let ifChangeCount, let origin):
            try await pasteboards.completeWrite(items, of: name, expire: expire, ifChangeCount: ifChangeCount, origin: origin, id: id)
        case .drag(let request):
            try await drags.begin(request, items: items, id: id)
        case .add(let session):
            try await drags.add(items, to: session, id: id)
        }
    }
}

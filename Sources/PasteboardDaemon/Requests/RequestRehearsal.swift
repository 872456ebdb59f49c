import NIOCore
import NIOPosix
package import PasteboardProtocol
import PasteboardSystem
package import PasteboardTypes

/// A client's requests handled as far as they go without a socket: validated exactly as a
/// connection validates them, their eager bytes made up (as many as declared, up to a bound),
/// and applied to an in-memory store, whose answers are then checked as a connection would send
/// them.
///
/// For the fuzzer (`pasteboard-fuzz requests`, PasteboardDaemonFuzzing) and the daemon's tests of
/// request handling: decoding a message is only the first gate, and
/// faults such as a number that traps when converted sit behind it, in validation and handling.
/// The rehearsal's client is a real `ConnectedClient` whose frames go nowhere (its outbox is in
/// no channel, so every send fails at once, as to a client that has gone).
package final class RequestRehearsal: Sendable {
    /// What became of one request.
    package enum Outcome: Sendable, Equatable {
        /// Handled; the answer is the message a connection would send (or nil for none).
        case answered(Message?)
        /// Refused with this error, as a connection would answer it.
        case refused(ProtocolError)
        /// Not a request a client starts (an answer, a notification): a connection answers it
        /// with `unexpected-message`.
        case notARequest
    }

    /// The most made-up bytes for one eager representation.
    static let madeUpByteLimit = 4096

    package let store: PasteboardStore
    package let configuration: DaemonConfiguration
    private let source: ConnectedClient

    /// A rehearsal against an empty in-memory store with `registry` (the built-in types by
    /// default) and `configuration`; its client is `rehearsal`, of the app `rehearsal`.
    package init(configuration: DaemonConfiguration = DaemonConfiguration(socketPath: ""), registry: TypeRegistry = .builtIn) {
        self.configuration = configuration
        store = PasteboardStore(registry: registry, historyLimits: configuration.historyLimits)
        let outbox = FrameOutbox(eventLoop: MultiThreadedEventLoopGroup.singleton.next())
        source = ConnectedClient(clientName: "rehearsal", pid: 1, writer: FrameWriter(outbox: outbox), window: configuration.window)
    }

    /// Handles `message` as a connection handles a new request on a free id.
    package func perform(_ message: Message) async -> Outcome {
        do {
            return .answered(try await handle(message))
        } catch let error as ProtocolError {
            return .refused(error)
        } catch is NotARequest {
            return .notARequest
        } catch {
            return .refused(ProtocolError(.internal, "\(error)"))
        }
    }

    private struct NotARequest: Error {}

    private func handle(_ message: Message) async throws -> Message? {
        switch message {
        case .write(let request):
            let assembly = try WriteAssembly(request, source: source, registry: store.registry, configuration: configuration)
            try feed(assembly)
            guard case .pasteboard(let name, let expire, let ifChangeCount, let origin) = assembly.target else { return nil }
            let changeCount = try await store.replaceItems(
                of: name, with: try await assembly.finish(), ifChangeCount: ifChangeCount, conflict: .fail, recordsHistory: expire == nil,
                origin: origin)
            // The store would arm a timer (left out: it outlives the rehearsal); its deadline must convert.
            if let expire { _ = ExpiryDeadline(after: expire).remaining() }
            return .ok(OK(changeCount: changeCount))
        case .drag(let request):
            let assembly = try WriteAssembly(.drag(request), items: request.items, source: source, registry: store.registry, configuration: configuration)
            try feed(assembly)
            // A session with a timeout would wait for it: only its conversion is rehearsed.
            if let timeout = request.timeout ?? configuration.sessionTimeout {
                _ = SecondsLimit.duration(timeout)
                return nil
            }
            return .session(await store.beginSession(request, items: try await assembly.finish(), source: source).info)
        case .add(let request):
            let assembly = try WriteAssembly(.add(session: request.session), items: request.items, source: source, registry: store.registry, configuration: configuration)
            try feed(assembly)
            _ = try await store.addItems(try await assembly.finish(), to: request.session, from: source)
            return nil
        case .read(let request):
            let control = TransferControl(window: SendWindow(initialCredit: configuration.window))
            let transfer = ReadTransfer(
                request: request, id: 1, control: control, store: store, writer: source.writer,
                chunkLimit: ProtocolLimits.dataChunkLimit(maxFrameLength: configuration.maxFrameLength),
                reader: source, release: {})
            if await !transfer.answerAtOnce() { await transfer.run() }
            return nil
        case .list(let request), .watch(let request):
            try Self.checkName(request.pasteboard)
            return .items(await store.summary(of: request.pasteboard))
        case .clear(let request):
            try Self.checkName(request.pasteboard)
            let changeCount = try await store.replaceItems(of: request.pasteboard, with: [], ifChangeCount: request.ifChangeCount, conflict: .fail,
                                                           origin: request.origin)
            return .ok(OK(changeCount: changeCount))
        case .declare(let request):
            try store.declare(request.types, app: source.app)
            return .ok(OK())
        case .types(let request):
            return .typeList(try store.typeList(from: request.start ?? 0, frameLimit: configuration.maxFrameLength))
        case .watchTypes:
            // A watch answers at once and then waits: only its first answer is rehearsed.
            return .typesChanged(TypesChanged(generation: store.types.generation))
        case .sessions(let request):
            if request.watch == true, request.session != nil {
                throw ProtocolError(.invalidArgument, "'watch' follows all sessions: give no 'session'")
            }
            let sessions = if let session = request.session { [try await store.sessionInfo(session, for: source)] } else { await store.sessionList(for: source) }
            return .sessionList(SessionList(sessions: sessions))
        case .drop(let request):
            return try await store.drop(request, by: source)
        case .finish(let request):
            try await store.finish(request, by: source)
            return .ok(OK())
        case .history(let request):
            return .historyList(try await store.historyList(from: request.start ?? 0, frameLimit: configuration.maxFrameLength))
        case .historySearch(let request):
            return .historyList(try await store.searchHistory(request.text, from: request.start ?? 0, frameLimit: configuration.maxFrameLength))
        case .historyRestore(let request):
            return .ok(OK(changeCount: try await store.restoreHistoryEntry(request.index)))
        case .historyClear:
            await store.clearHistory()
            return .ok(OK())
        case .relinquish:
            return nil
        case .hello, .welcome, .error, .ok, .representation, .attach, .items, .changed, .credit, .cancel,
             .progress, .produce, .size, .released, .session, .sessionList, .proposed, .dropped, .ended, .historyList, .typeList,
             .typesChanged:
            throw NotARequest()
        }
    }

    /// Sends `assembly` its eager bytes as data frames, as many as each representation declares
    /// (at most ``madeUpByteLimit``; 16 when it declares none).
    private func feed(_ assembly: WriteAssembly) throws(ProtocolError) {
        while !assembly.isComplete {
            let count = min(assembly.nextDeclaredSize ?? 16, Self.madeUpByteLimit)
            let bytes = ByteBuffer(repeating: UInt8(ascii: "r"), count: max(0, count))
            _ = try assembly.receive(.data(bytes, requestID: 1, end: true))
        }
    }

    private static func checkName(_ name: String) throws(ProtocolError) {
        if let failure = PasteboardName.validationFailure(name) { throw ProtocolError(.invalidArgument, failure) }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import NIOCore
import Pasteboard
internal import PasteboardProtocol
import PasteboardSystem
import Synchronization

/// One link between this machine's daemon and another's, over a byte stream to the other end
/// (ssh's standard input and output): the handshake, then, until either side goes, every change
/// of a shared pasteboard offered across, the other side's changes written here with its origin,
/// fetches of promised bytes in both directions, and pings.
///
/// A change crosses at most once per link and never back to the machine it came from: an end
/// does not offer a change whose origin is the peer's machine, or that it received from the peer;
/// a change that reaches a machine twice (a ring of links) is written once, since the daemon
/// takes a linked change only when it is later than its content (`ChangeOrigin`).
final class LinkSession: Sendable {
    let connection: PasteboardConnection
    let outbox: FrameOutbox
    let settings: LinkSettings
    let role: LinkRole
    let reporter: LinkStatusReporter
    let state: Mutex<LinkState>
    /// The frames of the handshake, until the peer's hello arrived.
    let helloWaiter = OneShot<Result<LinkHello, LinkError>>()
    /// The bytes of data one frame carries at most.
    let chunkLimit = ProtocolLimits.dataChunkLimit(maxFrameLength: ProtocolLimits.defaultMaxFrameLength)

    /// A session over `outbox` (frames to the peer) for the daemon at `connection`; frames from
    /// the peer are given to `receive`.
    init(connection: PasteboardConnection, outbox: FrameOutbox, settings: LinkSettings, role: LinkRole, reporter: LinkStatusReporter) {
        self.connection = connection
        self.outbox = outbox
        self.settings = settings
        self.role = role
        self.reporter = reporter
        self.state = Mutex(LinkState(nextRequestID: role.firstRequestID))
    }

    /// This end's hello.
    var hello: LinkHello {
        LinkHello(
            software: "pb \(PasteboardRelease.version)", machine: connection.welcome.machine ?? "", name: connection.welcome.machineName ?? "unknown",
            pasteboards: settings.pasteboards, sensitive: settings.sensitive, capture: settings.capture, window: settings.window)
    }

    /// Resolved when the link ends: the stream closed (`streamClosed`), or the session stopped.
    let ended = OneShot<LinkError>()

    /// The stream to the peer closed: no more frames will come.
    func streamClosed() {
        helloWaiter.resolve(.failure(LinkError("the other end closed the link before its hello")))
        let name = state.withLock { $0.peer?.name ?? "the other end" }
        ended.resolve(LinkError("the link to \(name) closed"))
    }

    /// Runs the link until the peer goes, the stream breaks, or a rule is broken (thrown, with
    /// what happened in words).
    func run(handshakeTimeout: Duration = .seconds(60)) async throws {
        guard connection.welcome.machine.map(MachineID.isValid) == true else {
            throw LinkError("the daemon is too old for links (its welcome names no machine id): restart it with this release's pasteboardd")
        }
        let waiter = helloWaiter
        let timeout = Task {
            try await Task.sleep(for: handshakeTimeout)
            waiter.resolve(.failure(LinkError("the other end did not answer within \(handshakeTimeout.seconds) s (is it a pb with links?)")))
        }
        defer { timeout.cancel() }
        do {
            try await send(.hello(hello), on: 0)
        } catch {
            // The stream was cut before the hello went (the other end's first bytes broke the
            // rules, or it closed at once): the waiter knows why, the failed write does not.
            if case .failure(let reason) = await waiter.value() { throw reason }
            throw error
        }
        // `receiveOnLink` checked the peer's hello and made it the link's peer as it arrived.
        let peer = try await helloWaiter.value().get()
        timeout.cancel()
        let shared = settings.pasteboards.filter(peer.pasteboards.contains)
        reporter.update { $0.linked(to: peer, sharing: shared) }
        reporter.log("linked with \(peer.name) (\(peer.software)), sharing \(shared.isEmpty ? "nothing" : shared.joined(separator: " "))")
        defer { failAll(LinkError("the link to \(peer.name) dropped")) }
        let ended = ended
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { throw await ended.value() }
            group.addTask { try await self.keepPinging() }
            group.addTask { try await self.keepStatusCurrent() }
            for name in shared {
                group.addTask { try await self.offerChanges(of: name) }
            }
            // The waits on `ended` end however the group does.
            defer {
                group.cancelAll()
                ended.resolve(LinkError("the link to \(peer.name) ended"))
            }
            try await group.next()
        }
    }

    /// Why the link cannot go on with the peer that sent `peer`, or nil.
    private func problem(with peer: LinkHello) -> String? {
        if peer.version != LinkHello.currentVersion {
            return "the other end speaks link protocol \(peer.version) (\(peer.software.prefix(64))), this one \(LinkHello.currentVersion): install the same release of pb on both machines"
        }
        if let problem = peer.problem { return problem }
        let machine = connection.welcome.machine ?? ""
        if peer.machine == machine { return "the link leads back to this machine's own daemon (machine \(machine.prefix(8)))" }
        return nil
    }

    // MARK: - Frames from the peer

    /// Takes one frame from the peer (on the stream's event loop): routes it to the request it
    /// belongs to. A frame that breaks the protocol ends the link (thrown by `inboundEnded` via `fail`).
    func receive(_ frame: Frame) {
        do throws(ProtocolError) {
            reporter.received(frame.payload.readableBytes)
            if frame.requestID == 0 {
                try receiveOnLink(frame)
            } else if frame.requestID % 2 == role.firstRequestID % 2 {
                try receiveForOwnRequest(frame)
            } else {
                try receiveForPeerRequest(frame)
            }
        } catch {
            breakLink(error)
        }
    }

    /// Set by the transport: ends the link with `error` (a frame broke the rules).
    let breaker = Mutex<(@Sendable (ProtocolError) -> Void)?>(nil)

    /// Sets what `receive` does when a frame breaks the protocol (close the stream).
    func onProtocolViolation(_ handler: @escaping @Sendable (ProtocolError) -> Void) {
        breaker.withLock { $0 = handler }
    }

    func breakLink(_ error: ProtocolError) {
        reporter.log("cutting the link off: \(error.message)")
        let failure = LinkError("the other end broke the link protocol: \(error.message)")
        // The reason is the link's end, not the close that follows it.
        helloWaiter.resolve(.failure(failure))
        ended.resolve(failure)
        let frame = Frame.link(.error(error), requestID: 0)
        let outbox = outbox
        let breaker = breaker.withLock { $0 }
        Task {
            try? await outbox.send(frame)
            breaker?(error)
        }
    }

    private func receiveOnLink(_ frame: Frame) throws(ProtocolError) {
        guard frame.kind == .message else { throw ProtocolError(.unexpectedMessage, "a data frame on the link's id 0") }
        let message = try LinkMessageCodec.decode(frame.payload)
        let hasPeer = state.withLock { $0.peer != nil }
        switch message {
        case .hello(let hello):
            guard !hasPeer else { throw ProtocolError(.unexpectedMessage, "a second link-hello") }
            // The peer is known before the next frame is routed (an offer may follow at once).
            if let problem = problem(with: hello) {
                helloWaiter.resolve(.failure(LinkError(problem)))
                ended.resolve(LinkError(problem))
                breaker.withLock { $0 }?(ProtocolError(.invalidArgument, problem))
                return
            }
            let shared = settings.pasteboards.filter(hello.pasteboards.contains)
            state.withLock { $0.peer = hello; $0.shared = Set(shared) }
            helloWaiter.resolve(.success(hello))
        case .ping(let ping):
            let answers = state.withLock { state in
                defer { state.pongPending = true }
                return !state.pongPending
            }
            if answers {
                Task {
                    try? await self.send(.pong(ping), on: 0)
                    self.state.withLock { $0.pongPending = false }
                }
            }
        case .pong(let pong):
            reporter.update { $0.latencyMicroseconds = max(0, Self.microsecondsNow - pong.value) }
            state.withLock { $0.lastPong = ContinuousClock.now }
        case .error(let error):
            let failure = LinkError("the other end ended the link: \(String(error.message.prefix(512)))")
            helloWaiter.resolve(.failure(failure))
            ended.resolve(failure)
            breaker.withLock { $0 }?(error)
        default:
            guard hasPeer else { throw ProtocolError(.handshakeRequired, "'\(message.op)' before link-hello") }
            throw ProtocolError(.unexpectedMessage, "'\(message.op)' on the link's id 0")
        }
    }

    // MARK: - Sending

    func send(_ message: LinkMessage, on id: UInt32) async throws {
        let frame = Frame.link(message, requestID: id)
        reporter.sent(frame.payload.readableBytes)
        try await outbox.send(frame)
    }

    func send(_ frames: [Frame]) async throws {
        reporter.sent(frames.reduce(0) { $0 + $1.payload.readableBytes })
        try await outbox.send(frames)
    }

    /// Sends `message` from a synchronous context (an answer decided on the event loop).
    func sendSoon(_ message: LinkMessage, on id: UInt32) {
        Task { try? await self.send(message, on: id) }
    }

    func nextRequestID() -> UInt32 {
        state.withLock { state in
            let id = state.nextRequestID
            state.nextRequestID = id &+ 2 == 0 ? role.firstRequestID : id &+ 2
            return id
        }
    }

    // MARK: - Pings

    private func keepPinging() async throws {
        state.withLock { $0.lastPong = ContinuousClock.now }
        while true {
            try await Task.sleep(for: settings.pingInterval)
            let last = state.withLock { $0.lastPong }
            if ContinuousClock.now - last > settings.stallTimeout {
                let name = state.withLock { $0.peer?.name ?? "the other end" }
                throw LinkError("\(name) did not answer for \(settings.stallTimeout.seconds) s: the link stalled")
            }
            try await send(.ping(LinkPing(value: Self.microsecondsNow)), on: 0)
        }
    }

    /// Writes what the status holds back every half second: `update` writes counters and
    /// progress at most that often, and what it held back waited for the next change of state or
    /// pong (10 s), so `pb link --status` showed a transfer's bytes that late.
    private func keepStatusCurrent() async throws {
        while true {
            try await Task.sleep(for: .milliseconds(500))
            reporter.flush()
        }
    }

    static var microsecondsNow: Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int(time.tv_sec) * 1_000_000 + Int(time.tv_nsec) / 1000
    }

    /// Every transfer in flight fails with `error` (the link ended).
    func failAll(_ error: LinkError) {
        let (fetches, serving) = state.withLock { state in
            defer { state.fetches = [:]; state.serving = [:] }
            return (Array(state.fetches.values), Array(state.serving.values))
        }
        for fetch in fetches { fetch.continuation.finish(throwing: error) }
        for serve in serving {
            serve.window.fail(error)
            serve.task?.cancel()
        }
    }
}

extension Duration {
    /// Whole seconds, for messages.
    var seconds: Int64 { components.seconds }
}

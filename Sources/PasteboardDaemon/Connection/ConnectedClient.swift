import NIOCore
import PasteboardProtocol
import Synchronization

/// A client's connection as the store sees it: any connected client (a source, a reader, a
/// drag's destination), with the frames the daemon sends it on its own request ids.
///
/// The daemon asks it for bytes with `produce` requests on daemon request ids (0x80000000 and
/// up); its answers (a `size`, data frames, or an `error`) are routed here from the connection's
/// inbound loop to the relay waiting for them. The daemon ends every produce with one terminal
/// frame (`ok` or `error`) unless the source ended it with an `error` of its own.
final class ConnectedClient: PromiseOwner {
    private struct State {
        var nextID: UInt32 = ProtocolLimits.daemonRequestIDBase
        var relays: [UInt32: Relay] = [:]
        var goneReason: String?
    }

    /// The client's name from its `hello`.
    let clientName: String
    /// The client's process id, from SO_PEERCRED.
    let pid: Int32
    /// The client's application (from `hello`, else its client name).
    let app: String
    /// The client's hand-off socket, when the daemon offered one (attached or not yet).
    let handoff: HandoffEndpoint?
    /// Where the daemon's requests to the client go.
    let writer: FrameWriter
    private let window: Int
    private let state = Mutex(State())

    init(clientName: String, pid: Int32, app: String? = nil, writer: FrameWriter, window: Int, handoff: HandoffEndpoint? = nil) {
        self.clientName = clientName
        self.pid = pid
        self.app = app ?? clientName
        self.writer = writer
        self.window = window
        self.handoff = handoff
    }

    /// "pb (pid 4242)", for error messages.
    var description: String { "\(clientName) (pid \(pid))" }

    /// Asks the source to produce a promised representation; the returned relay yields its bytes.
    /// With `descriptor`, the request is a hand-off: its socket goes over the source's hand-off
    /// socket first, and the relay yields only the source's `size` and END.
    /// Throws `source-unavailable` when the source is gone or the descriptor cannot be passed.
    func produce(_ request: ProduceRequest, descriptor: Int32?) async throws(ProtocolError) -> Relay {
        let relay = try state.withLock { state throws(ProtocolError) -> Relay in
            if let reason = state.goneReason { throw ProtocolError(.sourceUnavailable, reason) }
            let id = state.nextID
            state.nextID = id == UInt32.max ? ProtocolLimits.daemonRequestIDBase : id + 1
            let relay = Relay(id: id, window: window)
            state.relays[id] = relay
            return relay
        }
        if let descriptor {
            do throws(ProtocolError) {
                guard let handoff else { throw ProtocolError(.sourceUnavailable, "\(self) has no hand-off socket") }
                try handoff.send(descriptor, for: relay.id)
            } catch {
                _ = state.withLock { $0.relays.removeValue(forKey: relay.id) }
                throw error
            }
        }
        do {
            try await writer.send(.produce(request), on: relay.id)
        } catch {
            _ = state.withLock { $0.relays.removeValue(forKey: relay.id) }
            throw ProtocolError(.sourceUnavailable, "\(self) went away before it could be asked for \(request.type)")
        }
        return relay
    }

    /// Routes a frame the source sent on a daemon request id; false when no produce is in flight
    /// on that id. Throws when the source broke the protocol (the connection then closes).
    func receive(_ frame: Frame) throws(ProtocolError) -> Bool {
        guard let relay = state.withLock({ $0.relays[frame.requestID] }) else { return false }
        switch frame.kind {
        case .data:
            try relay.deliver(frame.payload, end: frame.isEnd)
        case .message:
            switch try frame.decodeMessage() {
            case .size(let size):
                try relay.declareSize(size.bytes)
            case .error(let error):
                // The source's error ends the produce: nothing more goes out on this id.
                _ = state.withLock { $0.relays.removeValue(forKey: relay.id) }
                relay.fail(ProtocolError(.sourceUnavailable, "\(self) could not produce the data: \(error.message)"))
            case let message:
                throw ProtocolError(.unexpectedMessage, "'\(message.op)' is not an answer to 'produce' (request id \(frame.requestID))")
            }
        }
        return true
    }

    /// Ends a produce with the daemon's terminal frame (`ok` or `error`), unless it already ended.
    func finish(_ relay: Relay, with message: Message) async {
        let open = state.withLock { $0.relays.removeValue(forKey: relay.id) != nil }
        guard open else { return }
        relay.fail(ProtocolError(.cancelled, "the produce ended"))
        // The source must hear this even when the destination's task is being cancelled (a
        // cancelled task's writes fail at once), so the frame goes out from a task of its own.
        let writer = writer
        await Task { try? await writer.send(message, on: relay.id) }.value
    }

    /// Returns credit for a produce to the source.
    func grant(_ bytes: Int, to relay: Relay) async {
        guard state.withLock({ $0.relays[relay.id] != nil }) else { return }
        try? await writer.send(.credit(Credit(bytes: bytes)), on: relay.id)
    }

    /// Tells the source how far the destination has come.
    func report(_ progress: ProgressReport, to relay: Relay) async {
        guard state.withLock({ $0.relays[relay.id] != nil }) else { return }
        try? await writer.send(.progress(progress), on: relay.id)
    }

    /// Tells the source that promises left every pasteboard (a one-frame notification).
    func notifyReleased(_ promises: [Int]) async {
        let id: UInt32? = state.withLock { state in
            guard state.goneReason == nil else { return nil }
            let id = state.nextID
            state.nextID = id == UInt32.max ? ProtocolLimits.daemonRequestIDBase : id + 1
            return id
        }
        guard let id else { return }
        try? await writer.send(.released(Released(promises: promises)), on: id)
    }

    /// True once the connection closed.
    var isDisconnected: Bool { state.withLock { $0.goneReason != nil } }

    /// The connection closed: every produce in flight fails with `source-unavailable`, and so
    /// does every later one.
    func disconnect() {
        let reason = "\(self) disconnected"
        let relays = state.withLock { state -> [Relay] in
            state.goneReason = reason
            defer { state.relays = [:] }
            return Array(state.relays.values)
        }
        for relay in relays { relay.fail(ProtocolError(.sourceUnavailable, "\(reason) while producing the data")) }
    }
}

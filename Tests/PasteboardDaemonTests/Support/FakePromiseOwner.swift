import NIOCore
@testable import PasteboardDaemon
import PasteboardProtocol
import Synchronization

/// A client as the store sees it, without a socket: it produces the bytes it was given for
/// each promise at once, and records what the daemon told it (released promises, how each
/// produce ended).
final class FakePromiseOwner: PromiseOwner {
    private struct State {
        var nextID: UInt32 = ProtocolLimits.daemonRequestIDBase
        var produced: [ProduceRequest] = []
        var finished: [Message] = []
    }

    let clientName: String
    let app: String
    let pid: Int32
    var handoff: HandoffEndpoint? { nil }
    /// The bytes each promise produces; a promise not here fails its produce.
    private let payloads: [Int: [UInt8]]
    private let state = Mutex(State())
    /// Each `released` notification, in order.
    let released: AsyncStream<[Int]>
    private let releasedContinuation: AsyncStream<[Int]>.Continuation

    init(_ clientName: String, app: String? = nil, pid: Int32 = 4242, payloads: [Int: [UInt8]] = [:]) {
        self.clientName = clientName
        self.app = app ?? clientName
        self.pid = pid
        self.payloads = payloads
        (released, releasedContinuation) = AsyncStream.makeStream(of: [Int].self)
    }

    var description: String { "\(clientName) (pid \(pid))" }

    /// The produce requests the daemon sent, in order.
    var produced: [ProduceRequest] { state.withLock { $0.produced } }
    /// The daemon's terminal frame of each produce, in order.
    var finished: [Message] { state.withLock { $0.finished } }

    func produce(_ request: ProduceRequest, descriptor: Int32?) async throws(ProtocolError) -> Relay {
        guard let bytes = payloads[request.promise] else {
            throw ProtocolError(.sourceUnavailable, "\(self) cannot produce promise \(request.promise)")
        }
        let id = state.withLock { state in
            state.produced.append(request)
            defer { state.nextID += 1 }
            return state.nextID
        }
        let relay = Relay(id: id, window: max(bytes.count, 1))
        try relay.declareSize(bytes.count)
        try relay.deliver(ByteBuffer(bytes: bytes), end: true)
        return relay
    }

    func finish(_ relay: Relay, with message: Message) async {
        state.withLock { $0.finished.append(message) }
    }

    func grant(_ bytes: Int, to relay: Relay) async {}

    func report(_ progress: ProgressReport, to relay: Relay) async {}

    func notifyReleased(_ promises: [Int]) async {
        releasedContinuation.yield(promises)
    }

    /// The next `released` notification (the store sends each from a task of its own).
    func nextReleased() async -> [Int]? {
        var iterator = released.makeAsyncIterator()
        return await iterator.next()
    }
}

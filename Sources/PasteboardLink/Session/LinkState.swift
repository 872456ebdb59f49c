internal import NIOCore
import PasteboardProtocol

/// What a link session keeps between frames (under the session's lock).
struct LinkState: Sendable {
    /// The next id of a request of this end's.
    var nextRequestID: UInt32
    /// The peer's hello, once it came.
    var peer: LinkHello?
    /// The pasteboards both ends share.
    var shared: Set<String> = []
    /// When the last pong came.
    var lastPong = ContinuousClock.now
    /// This end's fetches in flight, by id: where their frames go.
    var fetches: [UInt32: FetchInbox] = [:]
    /// The peer's fetches this end answers, by id.
    var serving: [UInt32: ServedFetch] = [:]
    /// The peer's offers whose inline bytes are still arriving, by id.
    var offers: [UInt32: OfferAssembly] = [:]
    /// The origins of changes the peer offered (the latest 256): never offered back.
    var received = RecentOrigins()
    /// The latest local content of each shared pasteboard, which fetches are answered from.
    var current: [String: ItemsReply] = [:]

    /// Whether a pong is on its way: a ping that comes meanwhile is not answered, so a peer
    /// that floods pings and reads nothing piles up no answers.
    var pongPending = false
    /// The inline bytes the offers in `offers` declared, together: at most four captures.
    var inlineInFlight = 0

    /// Where one fetch's frames go, and its flow control: the peer sends only what this end
    /// granted, checked as the bytes arrive (before they are buffered).
    struct FetchInbox: Sendable {
        let continuation: AsyncThrowingStream<FetchEvent, any Error>.Continuation
        var window: ReceiveWindow
    }

    /// What arrives for a fetch.
    enum FetchEvent: Sendable {
        case header(LinkHeader)
        case data(ByteBuffer, end: Bool)
    }

    /// A fetch of the peer's that this end answers.
    struct ServedFetch: Sendable {
        let window: SendWindow
        var task: Task<Void, Never>?
    }
}

/// The last few origins seen, in order, for "was this offered by the peer?".
struct RecentOrigins: Sendable {
    private var order: [ChangeOrigin] = []
    private var members: Set<ChangeOrigin> = []
    static let capacity = 256

    mutating func insert(_ origin: ChangeOrigin) {
        guard members.insert(origin).inserted else { return }
        order.append(origin)
        if order.count > Self.capacity { members.remove(order.removeFirst()) }
    }

    func contains(_ origin: ChangeOrigin) -> Bool { members.contains(origin) }
}

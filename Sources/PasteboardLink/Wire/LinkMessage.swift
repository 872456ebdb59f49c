public import PasteboardProtocol

/// A message of the link protocol, which two daemons' `pb link` ends speak over ssh's standard
/// input and output (pasteboard-protocol(7), LINKS): the frames of the daemon's protocol (the
/// same header, kinds and END flag), with these control messages.
///
/// Request ids: the end that ran ssh numbers its requests with odd ids, the end ssh started with
/// even ones, so the two never pick the same; id 0 is the link itself (`link-hello`, `ping`,
/// `pong`, and a fatal `error`).
public enum LinkMessage: Sendable, Equatable {
    /// The first frame each end sends, on id 0: who it is and what it shares.
    case hello(LinkHello)
    /// A change of a shared pasteboard, on a new id of the sender's; the bytes of its `inline`
    /// representations follow as data frames on that id, in order, each ended by END.
    case offer(LinkOffer)
    /// A clear of a shared pasteboard, on a new id of the sender's.
    case clear(LinkClear)
    /// A request for one representation's bytes, on a new id of the sender's.
    case fetch(LinkFetch)
    /// The answer to a `fetch`, on its id: the bytes follow as data frames, the last with END.
    case header(LinkHeader)
    /// More bytes the fetch's answerer may send, on the fetch's id.
    case credit(Credit)
    /// The fetcher stops a fetch, on its id.
    case cancel
    /// On a fetch's id: it failed. On id 0: the link ends, for the reason given.
    case error(ProtocolError)
    /// On id 0: answer with `pong` carrying the same value (latency, and a stalled peer's bound).
    case ping(LinkPing)
    /// On id 0: the answer to `ping`.
    case pong(LinkPing)

    /// The message's `op` on the wire.
    public var op: String {
        switch self {
        case .hello: "link-hello"
        case .offer: "offer"
        case .clear: "link-clear"
        case .fetch: "fetch"
        case .header: "fetched"
        case .credit: "credit"
        case .cancel: "cancel"
        case .error: "error"
        case .ping: "ping"
        case .pong: "pong"
        }
    }
}

internal import NIOCore
internal import PasteboardProtocol

/// The destination's side of one `read`, free of I/O: the request to send, then each frame the
/// daemon sends for it turned into the one thing the connection must do next.
///
/// `BlockingConnection` (a blocking socket, for `pb paste`) and `RepresentationLoader` (the
/// asynchronous connection) both drive it, so the protocol's rules are written once: data only
/// after the representation is named and within the credit given, credit returned as bytes
/// are consumed, a hand-off only through an attached socket and checked whole at the end.
/// They differ only in how they wait and where the bytes go.
struct ReadExchange {
    /// Where the items are.
    enum Target: Sendable {
        case pasteboard(String)
        case session(Int)
    }

    /// What the connection must do with one frame.
    enum Event {
        /// The daemon will hand this load off: attach the hand-off socket now (the daemon
        /// waits for it before it passes the transfer).
        case attachHandoff
        /// The daemon's choice; its bytes follow as data frames.
        case representation(RepresentationHeader)
        /// The daemon's choice, whose bytes come through `channel` (the transfer's descriptor
        /// is queued there for this request). Tell `handedOff(_:)` how many arrived.
        case handedOff(RepresentationHeader, through: HandoffChannel)
        /// A progress report, as the destination hears it.
        case progress(LoadProgress)
        /// Bytes for the destination (nil for an empty frame), then credit to grant the daemon
        /// once they are consumed (nil: none due yet).
        case data(ByteBuffer?, credit: Int?)
        /// The last frame's bytes (nil for none); then the load is complete.
        case finished(ByteBuffer?, RepresentationHeader)
        /// Nothing to do (a message this client does not act on).
        case ignored
    }

    private var window: ReceiveWindow
    /// The daemon's choice, once its `representation` arrived.
    private var chosen: RepresentationHeader?
    /// Bytes that came through a handed-off socket, once drained.
    private var handedOffCount: Int?
    /// The byte count the daemon's last `progress` reported.
    private var reported: Int?

    /// A read of `target`'s item `item` in the first of `accept` it offers; with `openInPlace`,
    /// a file the source lets be opened in place comes as its path. `asksHandoff` asks for the
    /// bytes through the hand-off socket where the daemon can (a live source's socket, a stored
    /// file), both kinds at once.
    static func request(
        _ target: Target, item: Int, accept: [TypeIdentifier], openInPlace: Bool = false, asksHandoff: Bool
    ) -> ReadRequest {
        let accept = accept.map(\.rawValue)
        let openInPlace: Bool? = openInPlace ? true : nil
        let handoff: Bool? = asksHandoff ? true : nil
        return switch target {
        case .pasteboard(let name):
            ReadRequest(pasteboard: name, item: item, accept: accept, openInPlace: openInPlace, handoff: handoff, handoffFile: handoff)
        case .session(let id):
            ReadRequest(session: id, item: item, accept: accept, openInPlace: openInPlace, handoff: handoff, handoffFile: handoff)
        }
    }

    /// An exchange under the flow-control `window` the daemon's `welcome` announced.
    init(window: Int) {
        self.window = ReceiveWindow(window: window)
    }

    /// What to do with `frame`, the daemon's next frame for this read; `handoff` gives the
    /// connection's hand-off channel if attached (asked only for a handed-off representation,
    /// so a data frame costs no look at it).
    ///
    /// Throws the daemon's error (`PasteboardError.daemon`); `connectionLost` when the daemon
    /// breaks the protocol: data before the representation is named, a hand-off without an
    /// attached socket, or a hand-off that lost bytes; and a `ProtocolError` for a malformed
    /// message or data beyond the credit given.
    mutating func take(_ frame: Frame, handoff: @autoclosure () -> HandoffChannel?) throws -> Event {
        switch frame.kind {
        case .message:
            switch try frame.decodeMessage() {
            case .attach:
                return .attachHandoff
            case .representation(let header):
                chosen = header
                guard header.handoff == true else { return .representation(header) }
                guard let handoff = handoff() else {
                    throw PasteboardError.connectionLost("the daemon handed off a load without a hand-off socket")
                }
                return .handedOff(header, through: handoff)
            case .progress(let report):
                reported = report.completed
                return .progress(LoadProgress(completed: report.completed, total: report.total))
            case .error(let error):
                throw PasteboardError.daemon(error)
            default:
                return .ignored
            }
        case .data:
            guard let chosen else {
                throw PasteboardError.connectionLost("the daemon sent data before naming the representation")
            }
            let count = frame.payload.readableBytes
            try window.receive(count)
            let bytes = count > 0 ? frame.payload : nil
            guard frame.isEnd else { return .data(bytes, credit: window.consume(count)) }
            if let handedOffCount, handedOffCount != reported {
                throw PasteboardError.connectionLost(
                    "the source wrote \(reported.map(String.init) ?? "an unknown number of") bytes, but \(handedOffCount) arrived")
            }
            return .finished(bytes, chosen)
        }
    }

    /// Records that `count` bytes arrived through the hand-off socket: the daemon's last
    /// progress report must name the same count, or bytes were lost on the way.
    mutating func handedOff(_ count: Int) {
        handedOffCount = count
    }
}

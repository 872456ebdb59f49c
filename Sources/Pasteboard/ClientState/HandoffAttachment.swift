internal import PasteboardProtocol

/// Whether a connection's hand-off socket is attached: not tried yet, attached, or not possible
/// (the daemon offered none, the socket is not that daemon's, hand-off is turned off).
///
/// It is tried once, when first needed (a source before it registers a promise, a destination
/// when the daemon asks with `attach`), so a connection that never hands off costs no second
/// socket; and never again after it failed, so a load does not pay for a doomed connect. Each
/// connection keeps one, and attaches through `attach(offeredBy:)`: an explicit call where the
/// protocol says to attach, not a side effect of reading a property.
enum HandoffAttachment {
    case untried
    case attached(HandoffChannel)
    case unavailable

    /// The channel if it is attached; nil otherwise, and nothing is tried.
    var channel: HandoffChannel? {
        if case .attached(let channel) = self { channel } else { nil }
    }

    /// The channel, attaching the socket `welcome` offers through `connect` the first time;
    /// nil when there is none or it could not be attached.
    @discardableResult
    mutating func attach(
        offeredBy welcome: Welcome,
        connect: (HandoffOffer, _ daemonPID: Int32) -> HandoffChannel? = HandoffChannel.attach
    ) -> HandoffChannel? {
        switch self {
        case .attached(let channel):
            return channel
        case .unavailable:
            return nil
        case .untried:
            let channel = welcome.handoff.flatMap { connect($0, welcome.pid) }
            self = channel.map(HandoffAttachment.attached) ?? .unavailable
            return channel
        }
    }
}

import PasteboardProtocol
import PasteboardTypes

/// A drag session as the daemon holds it (the client library's `DragSession` is the source's
/// handle on one; this is the daemon's record of it): lifted by a source with items, possibly grown by
/// others while in flight, dropped by one destination, then ended (finished, cancelled or failed).
///
/// Its metadata is readable by every client that may see it; its data only by the destination
/// that dropped it.
struct DragSessionRecord: Sendable {
    /// A client that contributed items and hears the session's events on its request.
    struct Participant: Sendable {
        let client: any PromiseOwner
        let events: AsyncStream<Message>.Continuation
    }

    let id: Int
    /// The client that began the session.
    let source: any PromiseOwner
    let allowed: [DragOperation]
    let restricted: Bool
    let localContext: String?
    /// Whether the source asked the desktop bridge to show the session.
    let desktop: Bool
    /// Where the source asked the handle to go.
    let desktopAt: DesktopPoint?
    /// The drop zone whose desktop drop this session carries, and the zone's destination: the
    /// only client besides the source that sees it.
    let zone: Int?
    let zoneOwner: (any PromiseOwner)?
    var items: [StoredItem]
    var participants: [Int: Participant] = [:]
    var state: SessionState = .lifted
    /// Once dropped: the destination and the operation it performs.
    var dropper: (any PromiseOwner)?
    var operation: DragOperation?

    /// True when `client` may see the session (and drop it).
    func isVisible(to client: any PromiseOwner) -> Bool {
        if zone != nil { return client === source || client === zoneOwner }
        return !restricted || client.app == source.app
    }

    /// The metadata `client` may read.
    func info(for client: any PromiseOwner, registry: TypeRegistry) -> SessionInfo {
        SessionInfo(
            id: id, app: source.app, client: source.clientName, pid: source.pid,
            allow: allowed, restricted: restricted ? true : nil, state: state,
            items: items.map { $0.info(registry: registry) },
            localContext: client.app == source.app ? localContext : nil,
            operation: operation, desktop: desktop ? true : nil, zone: zone, desktopAt: desktopAt
        )
    }

    /// The operation a destination's `copy`/`move` proposal performs: move only when allowed.
    func performedOperation(for proposal: DragOperation) throws(ProtocolError) -> DragOperation {
        if allowed.contains(proposal) { return proposal }
        if proposal == .move, allowed.contains(.copy) { return .copy }
        throw ProtocolError(
            .permissionDenied,
            "drag session \(id) allows only \(allowed.map(\.rawValue).joined(separator: ", ")), not \(proposal.rawValue)"
        )
    }

    /// Sends `event` to every participant.
    func broadcast(_ event: Message) {
        for participant in participants.values { participant.events.yield(event) }
    }
}

import PasteboardProtocol

/// Drop zones: kept while their destination's `sessions` watch lasts, listed to every watcher
/// (the desktop bridge shows them).
extension PasteboardStore {
    /// Opens a zone for `owner`; returns its id. Refused (`limit-reached`) past
    /// `DropZoneRecord.mostZones` open, or `mostZonesPerConnection` of one connection.
    func openZone(_ request: DropZoneRequest, for owner: any PromiseOwner) throws(ProtocolError) -> Int {
        guard zones.count < DropZoneRecord.mostZones else {
            throw ProtocolError(.limitReached, "\(DropZoneRecord.mostZones) drop zones are open, the most at once")
        }
        guard zones.values.filter({ $0.owner === owner }).count < DropZoneRecord.mostZonesPerConnection else {
            throw ProtocolError(.limitReached, "this connection keeps \(DropZoneRecord.mostZonesPerConnection) drop zones, the most one may")
        }
        let id = nextZoneID
        nextZoneID += 1
        zones[id] = DropZoneRecord(id: id, owner: owner, title: request.title, accept: request.accept ?? [])
        return id
    }

    /// Closes zone `id` (its watch ended); a session lifted for it keeps going.
    func closeZone(_ id: Int) {
        zones[id] = nil
    }

    /// The zones open, oldest first.
    func zoneList() -> [DropZoneInfo] {
        zones.keys.sorted().compactMap { zones[$0]?.info }
    }

    /// Whether zone `id` is open.
    func hasZone(_ id: Int) -> Bool { zones[id] != nil }

    /// A connection closed: its zones close.
    func connectionGoneFromZones(_ client: any PromiseOwner) {
        for (id, zone) in zones where zone.owner === client { zones[id] = nil }
    }

    /// How long a session lifted for a zone waits for its destination to drop it: it sees
    /// the session as soon as it is lifted, and nobody else may drop it.
    static let zoneSessionTimeout = 30.0
}

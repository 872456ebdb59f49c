import PasteboardProtocol

/// Drop zones: kept while their destination's `sessions` watch lasts, listed to every watcher
/// (the desktop bridge shows them).
extension PasteboardStore {
    /// Opens a zone for `owner`; returns its id.
    func openZone(_ request: DropZoneRequest, for owner: any PromiseOwner) -> Int {
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
}

import Pasteboard

/// Carries one drop from a desktop application into the destination waiting at a drop zone,
/// on X11 and Wayland alike: a session only that destination sees, lifted with the drop's
/// items, and its end as the operation the destination performed.
enum DesktopZoneDelivery {
    /// Lifts a session with `items` for zone `zone` (a move allowed when the application asked
    /// for one) and waits for its end: the operation performed, nil when it failed, was
    /// cancelled, or nothing was dropped.
    static func deliver(_ items: [ItemProvider], asMove: Bool, zone: Int, on connection: PasteboardConnection) async throws -> DragOperation? {
        guard !items.isEmpty else { return nil }
        let allowed: Set<DragOperation> = asMove ? [.copy, .move] : [.copy]
        let session = try await DragSession.begin(with: items, allowing: allowed, zone: zone, on: connection)
        for try await event in session.events {
            switch event {
            case let .finished(operation, _, _):
                return operation
            case .cancelled, .failed:
                return nil
            case .proposed(.forbidden, _):
                // The zone's destination refused what was dropped (no type it takes): nobody
                // else may drop this session, so it ends, and the application hears a failure.
                session.cancel()
            case .proposed, .dropped:
                continue
            }
        }
        return nil
    }
}

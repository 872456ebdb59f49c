import PasteboardProtocol

/// A drop zone the daemon keeps for a destination that watches the sessions with a `zone`:
/// the desktop bridge shows it as a window, and a drop into that window from a desktop
/// application becomes a session only this destination sees (`DragSessionRecord.zone`).
struct DropZoneRecord: Sendable {
    let id: Int
    let owner: any PromiseOwner
    let title: String?
    let accept: [String]

    var info: DropZoneInfo { DropZoneInfo(id: id, app: owner.app, pid: owner.pid, title: title, accept: accept) }

    /// The longest title in bytes, and the most types (each no longer than `longestType`
    /// bytes), a zone takes; with `mostZones`, every watcher's session list stays far below
    /// the smallest frame a client may negotiate (64 KiB): 8 × (256 + 32 × 128) bytes.
    static let longestTitle = 256
    static let mostTypes = 32
    static let longestType = 128
    /// The most zones open at once, and per connection: each is a window (an X connection and
    /// a thread in the bridge), and the X server serves a few hundred clients in all.
    static let mostZones = 8
    static let mostZonesPerConnection = 2

    /// Refuses a zone whose title or types are over the limits: the bridge draws the title and
    /// maps every type, and a client's numbers size neither without a bound.
    static func validate(_ request: DropZoneRequest) throws(ProtocolError) {
        if let title = request.title, title.utf8.count > longestTitle {
            throw ProtocolError(.invalidArgument, "a drop zone's title is at most \(longestTitle) bytes, not \(title.utf8.count)")
        }
        let accept = request.accept ?? []
        if accept.count > mostTypes {
            throw ProtocolError(.invalidArgument, "a drop zone accepts at most \(mostTypes) types, not \(accept.count)")
        }
        if let bad = accept.first(where: { $0.isEmpty || $0.utf8.count > longestType }) {
            throw ProtocolError(.invalidArgument, "a drop zone's type must be 1 to \(longestType) bytes: '\(bad.prefix(40))'")
        }
    }
}

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

    /// The longest title, and the most types (each no longer than `longestType`), a zone takes.
    static let longestTitle = 256
    static let mostTypes = 64
    static let longestType = 256

    /// Refuses a zone whose title or types are over the limits: the bridge draws the title and
    /// maps every type, and a client's numbers size neither without a bound.
    static func validate(_ request: DropZoneRequest) throws(ProtocolError) {
        if let title = request.title, title.count > longestTitle {
            throw ProtocolError(.invalidArgument, "a drop zone's title is at most \(longestTitle) characters, not \(title.count)")
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

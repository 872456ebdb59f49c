public import PasteboardJSON

/// What a drop does with the dragged items (UIKit's UIDropOperation, without the refusals).
public enum DragOperation: String, Sendable, Equatable, Hashable, Codable, JSONField, CaseIterable {
    /// The destination gets a copy; the source keeps its original.
    case copy
    /// The destination gets the items and the source deletes its originals once the drop finished.
    case move
}

/// A destination's answer to a drag session (UIKit's UIDropProposal operation).
public enum DropOperation: String, Sendable, Equatable, Hashable, Codable, JSONField, CaseIterable {
    /// The destination ends the drag: nothing is transferred, the session ends cancelled.
    case cancel
    /// The destination refuses the drop; the session stays in flight for another destination.
    case forbidden
    /// Perform the drop as a copy.
    case copy
    /// Perform the drop as a move (a copy when the source does not allow move).
    case move
}

/// Where a drag session stands.
public enum SessionState: String, Sendable, Equatable, Codable, JSONField {
    /// In flight: items may still be added; any destination may drop it.
    case lifted
    /// One destination dropped it and is loading its items.
    case dropped
}

/// `drag`: begin a drag session. Eager representations' bytes follow as data frames, as in `write`.
public struct DragRequest: Sendable, Equatable, JSONObjectCoding {
    /// The dragged items, in order.
    public var items: [ItemInfo]
    /// The operations the source allows; absent means copy only.
    public var allow: [DragOperation]?
    /// Only clients of the source's own application may see and drop the session.
    public var restricted: Bool?
    /// Opaque text only clients of the source's application see (UIKit's localContext).
    public var localContext: String?
    /// Seconds the session may stay in flight before the daemon cancels it.
    public var timeout: Double?
    /// True: the desktop bridge shows the session as a drag handle, from which the user drags
    /// it into any application of the desktop.
    public var desktop: Bool?
    /// The drop zone (`sessions` watch's `zone`) a desktop drop into which this session carries:
    /// only the zone's client sees and drops it. The desktop bridge's, for a drop from an application.
    public var zone: Int?
    /// Where on the desktop the handle goes (root coordinates of its top-left corner, moved
    /// inside the screen); absent: near the pointer. Only with `desktop`.
    public var desktopAt: DesktopPoint?

    public init(
        items: [ItemInfo], allow: [DragOperation]? = nil, restricted: Bool? = nil, localContext: String? = nil,
        timeout: Double? = nil, desktop: Bool? = nil, zone: Int? = nil, desktopAt: DesktopPoint? = nil
    ) {
        self.items = items
        self.allow = allow
        self.restricted = restricted
        self.localContext = localContext
        self.timeout = timeout
        self.desktop = desktop
        self.zone = zone
        self.desktopAt = desktopAt
    }
}

/// A point on the desktop, in pixels from its top-left corner.
public struct DesktopPoint: Sendable, Equatable, JSONObjectCoding {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    /// The largest coordinate taken: X11's are 16-bit signed.
    public static let largestCoordinate = 32767
}

extension DesktopPoint {
    public static var decodingStart: DesktopPoint { DesktopPoint(x: 0, y: 0) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("x", &x)
        try json.member("y", &y)
    }
}

extension DragRequest {
    public static var decodingStart: DragRequest { DragRequest(items: []) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("items", &items)
        try json.member("allow", &allow)
        try json.member("restricted", &restricted)
        try json.member("localContext", &localContext)
        try json.member("timeout", &timeout)
        try json.member("desktop", &desktop)
        try json.member("zone", &zone)
        try json.member("desktopAt", &desktopAt)
    }
}

/// `add`: items for a session in flight (UIKit's itemsForAddingTo). Eager bytes follow as in `write`.
public struct AddItemsRequest: Sendable, Equatable, JSONObjectCoding {
    /// The session's id.
    public var session: Int
    /// The added items; they follow the session's current items.
    public var items: [ItemInfo]

    public init(session: Int, items: [ItemInfo]) {
        self.session = session
        self.items = items
    }
}

extension AddItemsRequest {
    public static var decodingStart: AddItemsRequest { AddItemsRequest(session: 0, items: []) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("session", &session)
        try json.member("items", &items)
    }
}

/// `session`: a drag session's metadata (never its data).
public struct SessionInfo: Sendable, Equatable, JSONObjectCoding {
    /// The session's id, unique for the daemon's lifetime.
    public var id: Int
    /// The source's application.
    public var app: String
    /// The source's client name.
    public var client: String
    /// The source's process id.
    public var pid: Int32
    /// The operations the source allows.
    public var allow: [DragOperation]
    /// True when only the source's application may see and drop the session.
    public var restricted: Bool?
    /// Where the session stands.
    public var state: SessionState
    /// Its items: types, sizes, suggested names, in order.
    public var items: [ItemInfo]
    /// The source's local context; present only for clients of the source's application.
    public var localContext: String?
    /// Once dropped: the operation being performed.
    public var operation: DragOperation?
    /// True when the source asked for the session to be shown on the desktop (`drag`'s `desktop`).
    public var desktop: Bool?
    /// The drop zone whose desktop drop the session carries (`drag`'s `zone`).
    public var zone: Int?
    /// Where the source asked the handle to go (`drag`'s `desktopAt`).
    public var desktopAt: DesktopPoint?

    public init(
        id: Int, app: String, client: String, pid: Int32, allow: [DragOperation], restricted: Bool?,
        state: SessionState, items: [ItemInfo], localContext: String? = nil, operation: DragOperation? = nil,
        desktop: Bool? = nil, zone: Int? = nil, desktopAt: DesktopPoint? = nil
    ) {
        self.id = id
        self.app = app
        self.client = client
        self.pid = pid
        self.allow = allow
        self.restricted = restricted
        self.state = state
        self.items = items
        self.localContext = localContext
        self.operation = operation
        self.desktop = desktop
        self.zone = zone
        self.desktopAt = desktopAt
    }
}

extension SessionInfo {
    public static var decodingStart: SessionInfo { SessionInfo(id: 0, app: "", client: "", pid: 0, allow: [], restricted: nil, state: .lifted, items: []) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("id", &id)
        try json.member("app", &app)
        try json.member("client", &client)
        try json.member("pid", &pid)
        try json.member("allow", &allow)
        try json.member("restricted", &restricted)
        try json.member("state", &state)
        try json.member("items", &items)
        try json.member("localContext", &localContext)
        try json.member("operation", &operation)
        try json.member("desktop", &desktop)
        try json.member("zone", &zone)
        try json.member("desktopAt", &desktopAt)
    }
}

/// `sessions`: which sessions to describe.
public struct SessionsRequest: Sendable, Equatable, JSONObjectCoding {
    /// One session by id (an error when it is not in flight or not visible); absent means all.
    public var session: Int?
    /// True: not one answer but a `session-list` at once and again each time the sessions this
    /// client may see change (one begins, gains items, is dropped, or ends), until `cancel`
    /// (with all sessions only).
    public var watch: Bool?
    /// With `watch`: keep a drop zone on the desktop while the watch lasts; a desktop drop into
    /// it becomes a session only this client sees (`SessionInfo.zone`).
    public var zone: DropZoneRequest?
    public init(session: Int? = nil, watch: Bool? = nil, zone: DropZoneRequest? = nil) {
        self.session = session
        self.watch = watch
        self.zone = zone
    }
}

extension SessionsRequest {
    public static var decodingStart: SessionsRequest { SessionsRequest() }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("session", &session)
        try json.member("watch", &watch)
        try json.member("zone", &zone)
    }
}

/// `sessions.zone`: the drop zone a watching destination asks the desktop to show.
public struct DropZoneRequest: Sendable, Equatable, JSONObjectCoding {
    /// What the zone is called on the desktop (the destination's name, a file's).
    public var title: String?
    /// The types the destination takes, best first; absent or empty: any.
    public var accept: [String]?

    public init(title: String? = nil, accept: [String]? = nil) {
        self.title = title
        self.accept = accept
    }
}

extension DropZoneRequest {
    public static var decodingStart: DropZoneRequest { DropZoneRequest() }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("title", &title)
        try json.member("accept", &accept)
    }
}

/// A drop zone the daemon keeps for a watching destination, in every `session-list`.
public struct DropZoneInfo: Sendable, Equatable, JSONObjectCoding {
    /// The zone's id, unique for the daemon's lifetime.
    public var id: Int
    /// The destination's application and process id.
    public var app: String
    public var pid: Int32
    public var title: String?
    /// The types it takes, best first; empty: any.
    public var accept: [String]

    public init(id: Int, app: String, pid: Int32, title: String?, accept: [String]) {
        self.id = id
        self.app = app
        self.pid = pid
        self.title = title
        self.accept = accept
    }
}

extension DropZoneInfo {
    public static var decodingStart: DropZoneInfo { DropZoneInfo(id: 0, app: "", pid: 0, title: nil, accept: []) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("id", &id)
        try json.member("app", &app)
        try json.member("pid", &pid)
        try json.member("title", &title)
        try json.member("accept", &accept)
    }
}

/// `session-list`: the sessions in flight this client may see, most recent last.
public struct SessionList: Sendable, Equatable, JSONObjectCoding {
    public var sessions: [SessionInfo]
    /// The drop zones kept for watching destinations, oldest first (absent when there are none).
    public var zones: [DropZoneInfo]?
    /// In the lists of a watch that keeps a zone: that zone's id.
    public var zone: Int?
    public init(sessions: [SessionInfo], zones: [DropZoneInfo]? = nil, zone: Int? = nil) {
        self.sessions = sessions
        self.zones = zones
        self.zone = zone
    }
}

extension SessionList {
    public static var decodingStart: SessionList { SessionList(sessions: []) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("sessions", &sessions)
        try json.member("zones", &zones)
        try json.member("zone", &zone)
    }
}

/// `drop`: a destination's proposal for a session.
public struct DropRequest: Sendable, Equatable, JSONObjectCoding {
    /// The session; absent means the most recent session in flight this client may drop.
    public var session: Int?
    /// What the destination does.
    public var operation: DropOperation

    public init(session: Int? = nil, operation: DropOperation) {
        self.session = session
        self.operation = operation
    }
}

extension DropRequest {
    public static var decodingStart: DropRequest { DropRequest(operation: .cancel) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("session", &session)
        try json.member("operation", &operation)
    }
}

/// `finish`: the dropping destination is done with a session.
public struct FinishRequest: Sendable, Equatable, JSONObjectCoding {
    /// The session's id.
    public var session: Int
    /// True when the destination took what it needed; the source then hears `finished`.
    public var success: Bool
    /// Why it failed, when it did.
    public var message: String?
    /// Opaque text for the source, delivered only when both belong to the same application.
    public var localContext: String?
    /// The operation performed, when it is narrower than the one dropped: `copy` for a drop
    /// performed as a move whose destination kept the source's originals after all (a desktop
    /// target that answered a move with a copy). `move` on a copy drop is refused.
    public var operation: DragOperation?

    public init(session: Int, success: Bool, message: String? = nil, localContext: String? = nil, operation: DragOperation? = nil) {
        self.session = session
        self.success = success
        self.message = message
        self.localContext = localContext
        self.operation = operation
    }
}

extension FinishRequest {
    public static var decodingStart: FinishRequest { FinishRequest(session: 0, success: false) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("session", &session)
        try json.member("success", &success)
        try json.member("message", &message)
        try json.member("localContext", &localContext)
        try json.member("operation", &operation)
    }
}

/// `proposed`, `dropped`: which destination did what to the session.
public struct DestinationReport: Sendable, Equatable, JSONObjectCoding {
    /// The destination's proposal.
    public var operation: DropOperation
    /// The destination's application.
    public var app: String
    /// The destination's process id.
    public var pid: Int32

    public init(operation: DropOperation, app: String, pid: Int32) {
        self.operation = operation
        self.app = app
        self.pid = pid
    }
}

extension DestinationReport {
    public static var decodingStart: DestinationReport { DestinationReport(operation: .cancel, app: "", pid: 0) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("operation", &operation)
        try json.member("app", &app)
        try json.member("pid", &pid)
    }
}

/// How a drag session ended.
public enum SessionOutcome: String, Sendable, Equatable, Codable, JSONField {
    /// The destination finished the drop successfully with `operation`.
    case finished
    /// Nobody dropped it: the source abandoned it, its source went away, a destination cancelled, or it timed out.
    case cancelled
    /// The drop was performed but did not succeed (the destination failed or went away).
    case failed
}

/// `ended`: a drag session's end, to every source that contributed items.
public struct SessionEnd: Sendable, Equatable, JSONObjectCoding {
    public var outcome: SessionOutcome
    /// The performed operation, when `finished`.
    public var operation: DragOperation?
    /// Why it was cancelled or failed.
    public var message: String?
    /// The destination's application, when one dropped the session.
    public var destinationApp: String?
    /// The destination's `finish` local context, when it and the source share their application.
    public var localContext: String?

    public init(outcome: SessionOutcome, operation: DragOperation? = nil, message: String? = nil, destinationApp: String? = nil, localContext: String? = nil) {
        self.outcome = outcome
        self.operation = operation
        self.message = message
        self.destinationApp = destinationApp
        self.localContext = localContext
    }
}

extension SessionEnd {
    public static var decodingStart: SessionEnd { SessionEnd(outcome: .failed) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("outcome", &outcome)
        try json.member("operation", &operation)
        try json.member("message", &message)
        try json.member("destinationApp", &destinationApp)
        try json.member("localContext", &localContext)
    }
}

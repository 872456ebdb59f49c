package import PasteboardProtocol
import PasteboardTypes

/// The destination side of a drag (UIKit's UIDropSession): a session in flight, seen before the
/// drop. Its metadata (items, types, sizes, suggested names, the source's application) is
/// readable; its data only after `perform` dropped it.
public struct DropSession: Sendable {
    /// The session's metadata as the daemon reported it.
    package let info: SessionInfo
    /// The connection the session was found on.
    public let connection: PasteboardConnection

    /// The session's id.
    public var id: Int { info.id }
    /// The source's application.
    public var sourceApp: String { info.app }
    /// The source's process id.
    public var sourcePID: Int32 { info.pid }
    /// True once a destination dropped the session and is loading its items.
    public var isDropped: Bool { info.state == .dropped }
    /// The operations the source allows.
    public var allowedOperations: Set<DragOperation> { Set(info.allow.map(DragOperation.init)) }
    /// The source's local context, present only when this client belongs to the source's application.
    public var localContext: String? { info.localContext }
    /// True when the source asked for the session to be shown on the desktop (the desktop
    /// bridge shows it as a drag handle).
    public var isShownOnDesktop: Bool { info.desktop ?? false }
    /// Where the source asked the handle to be (its top-left corner); nil: near the pointer.
    public var handleOrigin: (x: Int, y: Int)? { info.desktopAt.map { ($0.x, $0.y) } }
    /// True when only the source's application may drop the session.
    public var isRestricted: Bool { info.restricted ?? false }

    /// The items, described (types, sizes when known, suggested names), in drag order.
    public var items: [PasteboardItem] {
        let registry = connection.registry
        return info.items.enumerated().map { index, info in
            PasteboardItem(index: index, changeCount: 0, info: info, registry: registry)
        }
    }

    /// The most recent session in flight this client may drop. Throws `no-such-session` when there is none.
    public static func current(on connection: PasteboardConnection) async throws -> DropSession {
        guard let latest = try await all(on: connection).last else {
            throw PasteboardError.daemon(.noSuchSession, "no drag session is in flight")
        }
        return latest
    }

    /// Session `id`. Throws `no-such-session` when it is not in flight, `permission-denied` when
    /// it is restricted to another application.
    public static func session(_ id: Int, on connection: PasteboardConnection) async throws -> DropSession {
        guard let session = try await list(SessionsRequest(session: id), on: connection).first else {
            throw PasteboardError.daemon(.noSuchSession, "there is no drag session \(id)")
        }
        return session
    }

    /// Every session in flight this client may see, oldest first.
    public static func all(on connection: PasteboardConnection) async throws -> [DropSession] {
        try await list(SessionsRequest(), on: connection)
    }

    /// Session `id` when given, else the current one. With `waiting`, when it is not in flight
    /// (or none is), the next session to begin (with `id`, the one of that id, which may begin
    /// later), however long that takes: a destination that waits for a drag, as a window waits
    /// for one to enter it (see `updates(on:)`).
    public static func find(_ id: Int?, on connection: PasteboardConnection, waiting: Bool = false) async throws -> DropSession {
        do {
            return if let id { try await session(id, on: connection) } else { try await current(on: connection) }
        } catch let error as PasteboardError where waiting && error.code == .noSuchSession {
            for try await update in updates(on: connection) {
                if case .began(let session) = update, !session.isDropped, id == nil || session.id == id { return session }
            }
            throw PasteboardError.connectionLost("the daemon closed the connection while waiting for a drag session")
        }
    }

    /// Whether some item has a representation conforming to one of `types`.
    public func hasItems(conformingTo types: [TypeIdentifier]) -> Bool {
        items.contains { item in types.contains { item.hasRepresentation(conformingTo: $0) } }
    }

    /// Whether some item can be loaded as a `T` (it offers a type `T` imports).
    public func canLoad<T: Transferable>(_ type: T.Type) -> Bool {
        hasItems(conformingTo: T.importableContentTypes)
    }

    /// Answers the session with `proposal`. `.copy` and `.move` perform the drop and return it
    /// (move becomes copy when the source does not allow it: see `PerformedDrop.operation`);
    /// load the items from it, then `finish`. `.forbidden` refuses the drop and leaves the
    /// session in flight; `.cancel` ends it cancelled; both return nil.
    public func perform(_ proposal: DropProposal) async throws -> PerformedDrop? {
        let (id, frames) = connection.openRequest()
        defer { connection.closeRequest(id) }
        try await connection.send(.drop(DropRequest(session: info.id, operation: proposal.operation.wire)), on: id)
        for try await frame in frames where frame.kind == .message {
            switch try frame.decodeMessage() {
            case .session(let dropped): return PerformedDrop(info: dropped, connection: connection)
            case .ok: return nil
            case .error(let error): throw PasteboardError.daemon(error)
            default: continue
            }
        }
        throw PasteboardError.connectionLost("the daemon closed the connection before answering 'drop'")
    }

    private static func list(_ request: SessionsRequest, on connection: PasteboardConnection) async throws -> [DropSession] {
        let (id, frames) = connection.openRequest()
        defer { connection.closeRequest(id) }
        try await connection.send(.sessions(request), on: id)
        for try await frame in frames where frame.kind == .message {
            switch try frame.decodeMessage() {
            case .sessionList(let list): return list.sessions.map { DropSession(info: $0, connection: connection) }
            case .error(let error): throw PasteboardError.daemon(error)
            default: continue
            }
        }
        throw PasteboardError.connectionLost("the daemon closed the connection before answering 'sessions'")
    }
}

/// A destination's answer to a drag (UIKit's UIDropProposal).
public struct DropProposal: Sendable, Equatable {
    /// What the destination does.
    public var operation: DropOperation

    /// A proposal with `operation`.
    public init(operation: DropOperation) { self.operation = operation }

    /// Take a copy; the source keeps its original.
    public static let copy = DropProposal(operation: .copy)
    /// Take the items; the source deletes its originals once the drop finished.
    public static let move = DropProposal(operation: .move)
    /// Refuse the drop; the drag stays in flight for another destination.
    public static let forbidden = DropProposal(operation: .forbidden)
    /// End the drag without a transfer.
    public static let cancel = DropProposal(operation: .cancel)
}

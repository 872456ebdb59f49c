package import PasteboardProtocol
import PasteboardTypes

extension DropSession {
    /// Waits for a drop from any desktop application: while it waits, the desktop bridge shows a
    /// drop zone named `title` (a window on X11) that takes drags offering one of `types` (any,
    /// when empty). A drag dropped there becomes a session only this client sees, which this
    /// returns: `perform` it, load its items (files the application dropped come as file
    /// representations, other data as the application's own types, read from it as they
    /// load), then `finish`; the application hears the operation performed, or the failure.
    ///
    /// The zone goes when this returns or the task is cancelled. Without a bridge serving a
    /// display, nothing is shown and this waits until cancelled.
    public static func fromDesktop(title: String, accepting types: [TypeIdentifier] = [], on connection: PasteboardConnection) async throws -> DropSession {
        let zone = DropZoneRequest(title: title, accept: types.isEmpty ? nil : types.map(\.rawValue))
        for try await list in lists(on: connection, zone: zone) {
            guard let id = list.zone else { continue }
            if let info = list.sessions.first(where: { $0.zone == id && $0.state == .lifted }) {
                return DropSession(info: info, connection: connection)
            }
        }
        throw PasteboardError.connectionLost("the daemon closed the connection while waiting for a desktop drop")
    }

    /// The sessions in flight this client may see and the drop zones destinations keep, each
    /// time either changes: what the desktop bridge follows to show drag handles and drop zones.
    package static func desktopLists(on connection: PasteboardConnection) -> AsyncThrowingStream<(sessions: [DropSession], zones: [DropZone]), any Error> {
        let lists = lists(on: connection)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await list in lists {
                        continuation.yield((list.sessions.map { DropSession(info: $0, connection: connection) }, (list.zones ?? []).map(DropZone.init)))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The session lists of a `sessions` watch (keeping `zone` while it lasts), as they come.
    package static func lists(on connection: PasteboardConnection, zone: DropZoneRequest? = nil) -> AsyncThrowingStream<SessionList, any Error> {
        connection.watching(.sessions(SessionsRequest(watch: true, zone: zone))) { message -> SessionList? in
            if case .sessionList(let list) = message { list } else { nil }
        }
    }
}

/// A drop zone a destination keeps while it waits for a desktop drop (`DropSession.fromDesktop`):
/// what the desktop bridge shows as a window.
public struct DropZone: Sendable, Equatable, Identifiable {
    /// The zone's id, which the session carrying a drop into it names.
    public let id: Int
    /// The waiting destination's application and process id.
    public let app: String
    public let pid: Int32
    /// What the zone is called on the desktop.
    public let title: String?
    /// The types the destination takes, best first; empty: any.
    public let accepted: [TypeIdentifier]

    init(_ info: DropZoneInfo) {
        id = info.id
        app = info.app
        pid = info.pid
        title = info.title
        accepted = info.accept.map(TypeIdentifier.init(rawValue:))
    }
}

internal import PasteboardProtocol

/// What changed among the drag sessions a destination may drop (UIKit's dropSessionDidEnter,
/// dropSessionDidUpdate and dropSessionDidEnd, for a destination that has no window to enter).
public enum DropSessionUpdate: Sendable {
    /// A session is in flight: lifted since, or already when the updates began.
    case began(DropSession)
    /// A session in flight changed: the source added items, or a destination dropped it.
    case changed(DropSession)
    /// The session with this id ended (dropped and finished, cancelled, failed, timed out) or
    /// is no longer visible to this client.
    case ended(sessionID: Int)
}

extension DropSession {
    /// The drag sessions this client may drop, as they come and go: `began` for each session in
    /// flight now and each one lifted later, `changed` when one gains items or is dropped,
    /// `ended` when one ends; until the consuming task stops iterating. A destination waits
    /// here instead of asking `current` in a loop.
    ///
    /// The stream throws `PasteboardError.connectionLost` when the daemon goes away, and
    /// `PasteboardError.daemon` with `unknown-message` from a daemon that cannot tell.
    public static func updates(on connection: PasteboardConnection) -> AsyncThrowingStream<DropSessionUpdate, any Error> {
        let lists = connection.watching(.sessions(SessionsRequest(watch: true))) { message -> [SessionInfo]? in
            if case .sessionList(let list) = message { list.sessions } else { nil }
        }
        return AsyncThrowingStream { continuation in
            let task = Task {
                var known: [Int: SessionInfo] = [:]
                do {
                    for try await sessions in lists {
                        for update in Self.updates(from: &known, to: sessions, on: connection) { continuation.yield(update) }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// What `list` changed of the sessions `known` (by id), which it then becomes.
    private static func updates(from known: inout [Int: SessionInfo], to list: [SessionInfo], on connection: PasteboardConnection) -> [DropSessionUpdate] {
        var updates: [DropSessionUpdate] = []
        let ids = Set(list.map(\.id))
        for id in known.keys.sorted() where !ids.contains(id) {
            updates.append(.ended(sessionID: id))
            known[id] = nil
        }
        for info in list {
            switch known[info.id] {
            case nil: updates.append(.began(DropSession(info: info, connection: connection)))
            case let old? where old != info: updates.append(.changed(DropSession(info: info, connection: connection)))
            default: break
            }
            known[info.id] = info
        }
        return updates
    }
}

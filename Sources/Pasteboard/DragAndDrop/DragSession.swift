package import PasteboardProtocol
import PasteboardTypes

/// The source side of a drag (UIKit's UIDragSession): items lifted into the daemon, which any
/// destination may inspect and one may drop.
///
/// ```swift
/// let session = try await DragSession.begin(with: [provider], allowing: [.copy, .move], on: connection)
/// for try await event in session.events {
///     if case .finished(.move, _, _) = event { deleteOriginals() }
/// }
/// ```
///
/// The connection serves the items' promised representations while the session is in flight,
/// so keep it open until `events` ends. Delete originals only on `.finished(.move, ...)`:
/// a drop is not acceptance.
public struct DragSession: Sendable {
    /// The session's id (what `pb drop --session` and `DropSession.session(_:on:)` take).
    public var id: Int { info.id }
    /// The session as it stood when this source joined it.
    package let info: SessionInfo
    /// The operations the source allows.
    public var allowedOperations: Set<DragOperation> { Set(info.allow.map(DragOperation.init)) }
    /// The session's items as they stood when this source joined it, in drag order.
    public var items: [PasteboardItem] { DropSession(info: info, connection: connection).items }
    /// What happens to the session, ending with `finished`, `cancelled` or `failed`.
    public let events: AsyncThrowingStream<DragEvent, any Error>
    private let connection: PasteboardConnection
    private let requestID: UInt32
    private let ending: Task<DragEvent?, Never>

    /// Begins a session with `items` (best representation first in each), allowing `operations`.
    /// With `restrictedToApp`, only clients of this connection's application see and drop it;
    /// `localContext` is visible only to them. With `timeout`, the daemon cancels the session
    /// when nobody dropped it in time. With `showOnDesktop`, the desktop bridge (when it has a
    /// display) shows the session as a drag handle, from which the user drags the items into any
    /// application of the desktop, near the pointer or with its top-left corner at
    /// `handleOrigin` (pixels from the screen's top-left, 0 to 32767, moved inside the screen);
    /// a session restricted to its application cannot be shown.
    public static func begin(
        with items: [ItemProvider], allowing operations: Set<DragOperation> = [.copy],
        restrictedToApp: Bool = false, localContext: String? = nil, timeout: Duration? = nil,
        showOnDesktop: Bool = false, handleOrigin: (x: Int, y: Int)? = nil, on connection: PasteboardConnection
    ) async throws -> DragSession {
        try await begin(with: items, allowing: operations, restrictedToApp: restrictedToApp, localContext: localContext,
                        timeout: timeout, showOnDesktop: showOnDesktop, handleOrigin: handleOrigin, zone: nil, on: connection)
    }

    /// Begins a session as `begin(with:...)` does; with `zone`, one carrying a desktop drop into
    /// that drop zone, which only the zone's destination sees (the desktop bridge's).
    package static func begin(
        with items: [ItemProvider], allowing operations: Set<DragOperation>, restrictedToApp: Bool = false,
        localContext: String? = nil, timeout: Duration? = nil, showOnDesktop: Bool = false, handleOrigin: (x: Int, y: Int)? = nil,
        zone: Int?, on connection: PasteboardConnection
    ) async throws -> DragSession {
        let upload = ItemUpload(items, connection: connection)
        let request = DragRequest(
            items: upload.infos, allow: DragOperation.allCases.filter(operations.contains).map(\.wire),
            restricted: restrictedToApp ? true : nil, localContext: localContext,
            timeout: timeout?.protocolSeconds, desktop: showOnDesktop ? true : nil, zone: zone,
            desktopAt: handleOrigin.map { DesktopPoint(x: $0.x, y: $0.y) }
        )
        return try await DragSession(upload.send(.drag(request)), connection: connection)
    }

    /// Adds `items` to session `id` while it is in flight (UIKit's itemsForAddingTo); they follow
    /// its current items. The returned session's events tell this source how the session ends.
    public static func add(_ items: [ItemProvider], to id: Int, on connection: PasteboardConnection) async throws -> DragSession {
        let upload = ItemUpload(items, connection: connection)
        return try await DragSession(upload.send(.add(AddItemsRequest(session: id, items: upload.infos))), connection: connection)
    }

    private init(_ sent: (reply: Message, id: UInt32, frames: RequestFrames), connection: PasteboardConnection) throws {
        guard case .session(let info) = sent.reply else {
            connection.closeRequest(sent.id)
            throw PasteboardError.connectionLost("the daemon answered '\(sent.reply.op)' instead of 'session'")
        }
        self.info = info
        self.connection = connection
        self.requestID = sent.id
        let (events, continuation) = AsyncThrowingStream.makeStream(of: DragEvent.self)
        self.events = events
        let frames = sent.frames
        let id = sent.id
        // Reads the session's frames until its end, which it returns (nil when the connection
        // ended first). It outlives a consumer that stops listening: that abandons the session,
        // and the daemon's answer to the `cancel` still comes here.
        self.ending = Task {
            defer { connection.closeRequest(id) }
            do {
                for try await frame in frames where frame.kind == .message {
                    guard let event = DragEvent(try frame.decodeMessage()) else { continue }
                    continuation.yield(event)
                    if event.isTerminal {
                        continuation.finish()
                        return event
                    }
                }
                continuation.finish(throwing: PasteboardError.connectionLost("the daemon closed the connection during the drag"))
            } catch {
                continuation.finish(throwing: error)
            }
            return nil
        }
        continuation.onTermination = { termination in
            // The consumer stopped listening: the source abandons the drag.
            if case .cancelled = termination { connection.cancelInBackground(id) }
        }
    }

    /// Waits for the session's end, handing every event to `observe` (the terminal one too), and
    /// returns the terminal event. When the task is cancelled first, the session is abandoned and
    /// the end the daemon answers with is handed to `observe` and returned (`.cancelled`, unless
    /// a drop came first).
    ///
    /// Callable from any isolation: `observe` runs on the caller's executor.
    nonisolated(nonsending) public func outcome(observing observe: (DragEvent) -> Void = { _ in }) async throws -> DragEvent {
        var iterator = events.makeAsyncIterator()
        // A cancelled task ends the stream, whose termination sends the `cancel`.
        while let event = try await iterator.next() {
            observe(event)
            if event.isTerminal { return event }
        }
        if Task.isCancelled {
            // Abandoned: the daemon's answer to the cancel is the end (a drop may have come
            // first). Waiting for it also keeps the cancel from being lost to an exit.
            let end = await ending.value ?? .cancelled("the drag was abandoned")
            observe(end)
            return end
        }
        throw PasteboardError.connectionLost("the drag's events ended without an outcome")
    }

    /// Abandons the session: it ends cancelled (for every participant), unless it already ended.
    public func cancel() {
        connection.cancelInBackground(requestID)
    }
}

/// What a drag source hears about its session.
public enum DragEvent: Sendable, Equatable, CustomStringConvertible {
    /// A destination refused the drop (`forbidden`) or is cancelling the drag (`cancel`).
    case proposed(DropOperation, destinationApp: String)
    /// A destination dropped the session and is loading its items with `operation`.
    case dropped(DragOperation, destinationApp: String, destinationPID: Int32)
    /// The destination finished the drop successfully; on `.move` the source deletes its originals.
    /// `localContext` is the destination's, when both belong to the same application.
    case finished(DragOperation, destinationApp: String?, localContext: String?)
    /// Nobody dropped the session: the source abandoned it or went away, a destination cancelled it, or it timed out.
    case cancelled(String)
    /// The drop was performed but failed (the destination said so, or went away).
    case failed(String)

    /// True for the session's last event.
    public var isTerminal: Bool {
        switch self {
        case .finished, .cancelled, .failed: true
        case .proposed, .dropped: false
        }
    }

    /// One line for humans ("dropped by gallery (pid 42) as move").
    public var description: String {
        switch self {
        case .proposed(let operation, let app):
            "\(app) \(operation == .forbidden ? "refused the drop" : "cancels the drag")"
        case .dropped(let operation, let app, let pid):
            "dropped by \(app) (pid \(pid)) as \(operation.rawValue)"
        case .finished(let operation, let app, _):
            "\(app ?? "the destination") finished the drop (\(operation.rawValue))"
        case .cancelled(let reason):
            "the drag was cancelled: \(reason)"
        case .failed(let reason):
            "the drop failed: \(reason)"
        }
    }

    init?(_ message: Message) {
        switch message {
        case .proposed(let report):
            self = .proposed(DropOperation(report.operation), destinationApp: report.app)
        case .dropped(let report):
            self = .dropped(report.operation == .move ? .move : .copy, destinationApp: report.app, destinationPID: report.pid)
        case .ended(let end):
            switch end.outcome {
            case .finished:
                self = .finished(end.operation.map(DragOperation.init) ?? .copy, destinationApp: end.destinationApp, localContext: end.localContext)
            case .cancelled:
                self = .cancelled(end.message ?? "the drag was cancelled")
            case .failed:
                self = .failed(end.message ?? "the drop failed")
            }
        case .error(let error):
            self = .failed(error.message)
        default:
            return nil
        }
    }
}

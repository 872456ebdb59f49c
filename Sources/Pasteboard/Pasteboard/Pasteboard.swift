#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import NIOCore
package import PasteboardProtocol
import PasteboardTypes

/// A named pasteboard seen through a connection to the daemon.
public struct Pasteboard: Sendable {
    /// The pasteboard's name ("general" unless told otherwise).
    public let name: String
    /// The connection requests go through.
    public let connection: PasteboardConnection

    /// The pasteboard called `name` on `connection`.
    public init(name: String = "general", connection: PasteboardConnection) {
        self.name = name
        self.connection = connection
    }

    /// The change count and a description of every item (types, sizes, suggested names).
    public func contents() async throws -> PasteboardContents {
        PasteboardContents(try await contentsReply(), registry: connection.registry)
    }

    /// The daemon's `items` answer as it came, for the package's own tools that print it.
    package func contentsReply() async throws -> ItemsReply {
        let reply = try await simpleRequest(.list(PasteboardRequest(pasteboard: name)))
        guard case .items(let items) = reply else { throw unexpected(reply) }
        return items
    }

    /// The current change count.
    public func changeCount() async throws -> Int {
        try await contentsReply().changeCount
    }

    /// The items, described (types, sizes when known, suggested names), without loading any data.
    public func items() async throws -> [PasteboardItem] {
        try await contents().items
    }

    /// Removes every item; returns the new change count. With `ifChangeCount`, only when the
    /// pasteboard still has that change count (so a newer copy is never cleared by mistake).
    @discardableResult
    public func clear(ifChangeCount: Int? = nil) async throws -> Int {
        try await clear(ifChangeCount: ifChangeCount, origin: nil)
    }

    /// `clear` of a change made on another machine at `origin` (see `setItems(_:expiringAfter:ifChangeCount:origin:)`).
    @discardableResult
    package func clear(ifChangeCount: Int? = nil, origin: ChangeOrigin?) async throws -> Int {
        let reply = try await simpleRequest(.clear(ClearRequest(pasteboard: name, ifChangeCount: ifChangeCount, origin: origin)))
        guard case .ok(let ok) = reply, let changeCount = ok.changeCount else { throw unexpected(reply) }
        return changeCount
    }

    /// Replaces the items; returns once the daemon holds all of them, with the new change count.
    /// Eager bytes are sent under the daemon's flow-control credit; promised representations are
    /// served by this connection for as long as they stay on the pasteboard.
    /// With `expiringAfter`, the daemon clears the pasteboard that long after, unless it changed meanwhile.
    /// With `ifChangeCount`, the items replace the pasteboard's only while its change count is
    /// still that; otherwise nothing is written and the error's code is `conflict`.
    @discardableResult
    public func setItems(_ items: [ItemProvider], expiringAfter expiry: Duration? = nil, ifChangeCount: Int? = nil) async throws -> Int {
        try await setItems(items, expiringAfter: expiry, ifChangeCount: ifChangeCount, origin: nil)
    }

    /// `setItems` of a change made on another machine at `origin` (a link's): the daemon writes
    /// it only when `origin` is later than its content's, else the error's code is `superseded`.
    @discardableResult
    package func setItems(_ items: [ItemProvider], expiringAfter expiry: Duration? = nil, ifChangeCount: Int? = nil, origin: ChangeOrigin?) async throws -> Int {
        let upload = ItemUpload(items, connection: connection)
        let expire = expiry?.protocolSeconds
        let (reply, id, _) = try await upload.send(.write(WriteRequest(pasteboard: name, items: upload.infos, expire: expire, ifChangeCount: ifChangeCount, origin: origin)))
        connection.closeRequest(id)
        guard case .ok(let ok) = reply else { throw unexpected(reply) }
        return ok.changeCount ?? 0
    }


    /// The pasteboard's current content first, then every change from now on, until the
    /// consuming task stops iterating (the first element lets a view show what is there
    /// without a separate `contents()` that a change could slip between). The
    /// stream throws `PasteboardError.connectionLost` when the daemon goes away (it stopped, or
    /// the connection broke); a watch that should outlive it connects again and watches anew.
    public func changes() -> AsyncThrowingStream<PasteboardContents, any Error> {
        let registry = connection.registry
        return changes { PasteboardContents($0, registry: registry) }
    }

    /// Every change as `transform` makes it of the daemon's `changed` message (the package's
    /// own tools print the message as it came).
    package func changes<Change: Sendable>(_ transform: @escaping @Sendable (ItemsReply) -> Change) -> AsyncThrowingStream<Change, any Error> {
        connection.watching(.watch(PasteboardRequest(pasteboard: name))) { message in
            if case .changed(let change) = message { transform(change) } else { nil }
        }
    }

    private func simpleRequest(_ message: Message) async throws -> Message {
        try await connection.answer(to: message)
    }

    private func unexpected(_ message: Message) -> PasteboardError {
        PasteboardConnection.unexpected(message)
    }
}

import PasteboardProtocol

/// A client as the store and the transfers see it: the owner of the representations it
/// promised, and the party a drag session, a read or a capture names.
///
/// The store keeps promises, not connections: of a promise's owner it needs only who it is
/// (object identity, to tell owners apart; a description for messages; the application, name
/// and pid a drag session shows and checks) and the few requests the daemon sends it
/// (`produce` and its end, credit and progress for it, `released`). Every client is one,
/// readers included, since any client may promise. `ConnectedClient` is the daemon's; a test
/// gives the store a fake, so the store is tested without a socket.
protocol PromiseOwner: AnyObject, Sendable, CustomStringConvertible {
    /// The client's name from its `hello`.
    var clientName: String { get }
    /// The client's application (from `hello`, else its client name).
    var app: String { get }
    /// The client's process id, from SO_PEERCRED.
    var pid: Int32 { get }
    /// The client's hand-off socket, when the daemon offered one (attached or not yet).
    var handoff: HandoffEndpoint? { get }

    /// Asks the owner to produce a promised representation; the returned relay yields its bytes.
    /// With `descriptor`, the request is a hand-off: its socket goes to the owner first, and the
    /// relay yields only the owner's `size` and END. Throws `source-unavailable` when the owner
    /// is gone or the descriptor cannot be passed.
    func produce(_ request: ProduceRequest, descriptor: Int32?) async throws(ProtocolError) -> Relay
    /// Ends a produce with the daemon's terminal frame (`ok` or `error`), unless it already ended.
    func finish(_ relay: Relay, with message: Message) async
    /// Returns credit for a produce to the owner.
    func grant(_ bytes: Int, to relay: Relay) async
    /// Tells the owner how far the destination of a produce has come.
    func report(_ progress: ProgressReport, to relay: Relay) async
    /// Tells the owner that promises left every pasteboard (a one-frame notification).
    func notifyReleased(_ promises: [Int]) async
}

extension PromiseOwner {
    /// Asks the owner to produce a promised representation through the daemon (no hand-off).
    func produce(_ request: ProduceRequest) async throws(ProtocolError) -> Relay {
        try await produce(request, descriptor: nil)
    }
}

public import Pasteboard

/// One lane of the desktop bridge: a loop that carries one selection one way (or, for the X11
/// clipboard manager, keeps it) over a connection to the daemon, reporting what it does as
/// events. The bridge runs its lanes on one connection of its own; tools and tests run one
/// alone with `run(socketPath:autoStart:onEvent:)`.
public protocol DesktopLane: Sendable {
    /// What the lane reports: an import, an export, a skip and why.
    associatedtype Event: Sendable

    /// Runs the lane over `connection` until the task is cancelled (returns) or its display
    /// connection fails (throws).
    func run(on connection: PasteboardConnection, onEvent: @escaping @Sendable (Event) -> Void) async throws
}

extension DesktopLane {
    /// Connects to the daemon at `socketPath` as `pasteboard-desktop` (starting it only with
    /// `autoStart`: a bridge must not start a daemon of its own) and runs the lane until
    /// cancelled (see `run(on:onEvent:)`).
    public func run(
        socketPath: String = PasteboardConnection.defaultSocketPath, autoStart: Bool = false,
        onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) async throws {
        try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: Self.clientName, autoStart: autoStart) { connection in
            try await run(on: connection, onEvent: onEvent)
        }
    }

    /// The client name a lane run alone connects as.
    public static var clientName: String { "pasteboard-desktop" }
}

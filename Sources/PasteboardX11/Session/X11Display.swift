public import PasteboardSystem

/// Where a session finds the X server and how long it waits on owners: what every connection
/// it opens (a watcher's, a clipboard manager's, one per fetch) is made from.
public struct X11Display: Sendable {
    /// The display (nil: `DISPLAY` from `environment`).
    public var displayName: String?
    /// The environment giving `DISPLAY`, `XAUTHORITY` and `HOME`.
    public var environment: [String: String]
    /// Whether a TCP (forwarded) display may be bridged; off by default, as issue 26 asks.
    public var allowRemote: Bool
    /// The bounded wait for each answer of an owner: a silent owner fails the load after it.
    public var ownerTimeout: Duration

    public init(
        displayName: String? = nil, environment: [String: String] = ProcessEnvironment.current(),
        allowRemote: Bool = false, ownerTimeout: Duration = .seconds(5)
    ) {
        self.displayName = displayName
        self.environment = environment
        self.allowRemote = allowRemote
        self.ownerTimeout = ownerTimeout
    }

    /// A new connection to the display (blocking: the sessions call it on their own threads).
    public func connect() throws(X11Error) -> X11Connection {
        try X11Connection.connect(displayName: displayName, environment: environment, allowRemote: allowRemote)
    }
}

extension X11Display {
    /// Whether the display answers: a connection made (and closed) on a thread of its own
    /// (`BlockingWork`); throws why not.
    public func probe() async throws(X11Error) {
        let display = self
        try await BlockingWork.run { () throws(X11Error) in try display.connect().close() }
    }
}

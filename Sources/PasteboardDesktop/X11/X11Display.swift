public import PasteboardSystem
import PasteboardX11

/// Where the bridge finds the X server and how long it waits on owners: what every connection
/// it opens (the watcher's, and one per lazy fetch) is made from.
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

    /// A new connection to the display.
    func connect() throws(X11Error) -> X11Connection {
        try X11Connection.connect(displayName: displayName, environment: environment, allowRemote: allowRemote)
    }
}

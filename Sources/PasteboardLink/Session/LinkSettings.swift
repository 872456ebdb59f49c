/// What one link shares and how: from `pb link`'s options, or the daemon's `link-*` settings.
public struct LinkSettings: Sendable, Equatable {
    /// The pasteboards this end shares; a change crosses only on those both ends share.
    public var pasteboards: [String]
    /// Whether sensitive items (and the marker types that mark them) cross: only when both ends say so.
    public var sensitive: Bool
    /// The most bytes of text sent with a change at once (small text pastes after the link drops).
    public var capture: Int
    /// The flow-control window granted to each fetch's sender.
    public var window: Int
    /// How often the link is pinged (latency, and the bound on a stalled peer).
    public var pingInterval: Duration
    /// How long the link waits for a peer that sends nothing (no pong, no bytes of a fetch)
    /// before it gives up on it.
    public var stallTimeout: Duration
    /// How long the other end's hello may take, ssh's login included.
    public var handshakeTimeout: Duration

    public init(pasteboards: [String] = ["general"], sensitive: Bool = false, capture: Int = 1 << 20, window: Int = 4 << 20,
                pingInterval: Duration = .seconds(10), stallTimeout: Duration = .seconds(30), handshakeTimeout: Duration = .seconds(60)) {
        self.handshakeTimeout = handshakeTimeout
        self.pasteboards = pasteboards
        self.sensitive = sensitive
        self.capture = capture
        self.window = window
        self.pingInterval = pingInterval
        self.stallTimeout = stallTimeout
    }
}

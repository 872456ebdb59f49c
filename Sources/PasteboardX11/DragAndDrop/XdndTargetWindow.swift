/// A top-level window under the pointer, as the source learned it from the server: its
/// XdndAware property (the highest version it speaks, any number a peer wrote, or nil without
/// the property) and its XdndProxy (the window that takes its messages, XDND spec v4).
public struct XdndTargetWindow: Hashable, Sendable {
    public let window: WindowID
    public let awareVersion: UInt32?
    public let proxy: WindowID?

    public init(window: WindowID, awareVersion: UInt32?, proxy: WindowID? = nil) {
        self.window = window
        self.awareVersion = awareVersion
        self.proxy = proxy
    }

    /// The version to speak with it, nil when it is no drop target (no XdndAware, or below 3).
    public var version: XdndVersion? { awareVersion.flatMap(XdndVersion.init(negotiatingWith:)) }
}

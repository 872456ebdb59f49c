/// The components CreateGC sets (protocol spec, CreateGC's value list): what drawing a handle's
/// background, text and preview needs. Each set one becomes a value, in the order of its mask bit.
public struct GraphicsContextValues: Equatable, Sendable {
    /// foreground (bit 0x4).
    public var foreground: UInt32?
    /// background (bit 0x8).
    public var background: UInt32?
    /// graphics-exposures (bit 0x10000): false spares the GraphicsExposure and NoExposure
    /// events a PutImage would otherwise bring (on by default).
    public var graphicsExposures: Bool?

    public init(foreground: UInt32? = nil, background: UInt32? = nil, graphicsExposures: Bool? = nil) {
        self.foreground = foreground
        self.background = background
        self.graphicsExposures = graphicsExposures
    }

    /// The value mask and the values in its bit order.
    func valueList() -> ValueList<UInt32> {
        var list = ValueList<UInt32>()
        list.add(0x4, foreground)
        list.add(0x8, background)
        list.add(0x10000, graphicsExposures)
        return list
    }
}

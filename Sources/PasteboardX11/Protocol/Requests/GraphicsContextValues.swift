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

    /// The value mask and the values in its bit order (a BOOL is a 32-bit 0 or 1).
    func valueList() -> (mask: UInt32, values: [UInt32]) {
        let fields: [(bit: UInt32, value: UInt32?)] = [
            (0x4, foreground), (0x8, background), (0x10000, graphicsExposures.map { $0 ? 1 : 0 }),
        ]
        var mask: UInt32 = 0
        var values: [UInt32] = []
        for field in fields {
            guard let value = field.value else { continue }
            mask |= field.bit
            values.append(value)
        }
        return (mask, values)
    }
}

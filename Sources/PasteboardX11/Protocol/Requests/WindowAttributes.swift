/// The attributes CreateWindow sets (protocol spec, CreateWindow's value list): only those a
/// drag handle or a drop zone needs. Each set one becomes a value, in the order of its mask bit.
public struct WindowAttributes: Equatable, Sendable {
    /// background-pixel (bit 0x2): the pixel the server fills exposed areas with, so the window
    /// never shows what was below it before we draw.
    public var backgroundPixel: UInt32?
    /// border-pixel (bit 0x8).
    public var borderPixel: UInt32?
    /// override-redirect (bit 0x200): the window manager neither frames nor moves the window (a
    /// handle that follows the pointer, as tooltips and menus do).
    public var overrideRedirect: Bool?
    /// save-under (bit 0x400).
    public var saveUnder: Bool?
    /// event-mask (bit 0x800): `EventMask` bits.
    public var eventMask: UInt32?
    /// colormap (bit 0x2000): required with a visual other than the parent's.
    public var colormap: UInt32?
    /// cursor (bit 0x4000): 0 is None (the parent's cursor).
    public var cursor: UInt32?

    public init(
        backgroundPixel: UInt32? = nil, borderPixel: UInt32? = nil, overrideRedirect: Bool? = nil, saveUnder: Bool? = nil,
        eventMask: UInt32? = nil, colormap: UInt32? = nil, cursor: UInt32? = nil
    ) {
        self.backgroundPixel = backgroundPixel
        self.borderPixel = borderPixel
        self.overrideRedirect = overrideRedirect
        self.saveUnder = saveUnder
        self.eventMask = eventMask
        self.colormap = colormap
        self.cursor = cursor
    }

    /// The value mask and the values in the mask's bit order (a BOOL is a 32-bit 0 or 1).
    /// Refuses event bits the spec leaves unused, which the server would answer with BadValue.
    func valueList() throws(X11Error) -> (mask: UInt32, values: [UInt32]) {
        if let eventMask, eventMask & EventMask.unused != 0 {
            throw .invalidArgument("CreateWindow: event mask 0x\(String(eventMask, radix: 16)) sets bits SETofEVENT leaves unused")
        }
        let fields: [(bit: UInt32, value: UInt32?)] = [
            (0x2, backgroundPixel), (0x8, borderPixel), (0x200, overrideRedirect.map { $0 ? 1 : 0 }),
            (0x400, saveUnder.map { $0 ? 1 : 0 }), (0x800, eventMask), (0x2000, colormap), (0x4000, cursor),
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

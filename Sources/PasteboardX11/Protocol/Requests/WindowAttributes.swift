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

    /// The value mask and the values in the mask's bit order.
    /// Refuses event bits the spec leaves unused, which the server would answer with BadValue.
    func valueList() throws(X11Error) -> ValueList<UInt32> {
        if let eventMask, eventMask & EventMask.unused != 0 {
            throw .invalidArgument("CreateWindow: event mask 0x\(String(eventMask, radix: 16)) sets bits SETofEVENT leaves unused")
        }
        var list = ValueList<UInt32>()
        list.add(0x2, backgroundPixel)
        list.add(0x8, borderPixel)
        list.add(0x200, overrideRedirect)
        list.add(0x400, saveUnder)
        list.add(0x800, eventMask)
        list.add(0x2000, colormap)
        list.add(0x4000, cursor)
        return list
    }
}

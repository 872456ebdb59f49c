/// What ConfigureWindow changes (protocol spec, ConfigureWindow): each field set becomes a value,
/// in the order of its mask bit; unset fields keep the window's current value.
public struct WindowChanges: Equatable, Sendable {
    /// Where a restacked window goes relative to its siblings (or `sibling`).
    public enum StackMode: UInt32, Sendable {
        case above = 0, below = 1, topIf = 2, bottomIf = 3, opposite = 4
    }

    /// x (bit 0x1), relative to the parent's origin.
    public var x: Int16?
    /// y (bit 0x2).
    public var y: Int16?
    /// width (bit 0x4); 0 is refused (BadValue).
    public var width: UInt16?
    /// height (bit 0x8); 0 is refused.
    public var height: UInt16?
    /// border-width (bit 0x10).
    public var borderWidth: UInt16?
    /// sibling (bit 0x20): the window `stackMode` is relative to; it requires `stackMode`.
    public var sibling: WindowID?
    /// stack-mode (bit 0x40): `above` raises the handle over the windows it is dragged across.
    public var stackMode: StackMode?

    public init(
        x: Int16? = nil, y: Int16? = nil, width: UInt16? = nil, height: UInt16? = nil, borderWidth: UInt16? = nil,
        sibling: WindowID? = nil, stackMode: StackMode? = nil
    ) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.borderWidth = borderWidth
        self.sibling = sibling
        self.stackMode = stackMode
    }

    /// The 16-bit value mask and the values in its bit order. An INT16 value is sign-extended
    /// to its 32 bits, as Xlib and xcb send it. Refuses what the server would refuse: no change
    /// at all, a zero width or height, a sibling without a stack mode (BadMatch).
    func valueList() throws(X11Error) -> ValueList<UInt16> {
        guard width != 0, height != 0 else { throw .invalidArgument("ConfigureWindow: a width or height of 0") }
        guard sibling == nil || stackMode != nil else { throw .invalidArgument("ConfigureWindow: a sibling without a stack mode") }
        var list = ValueList<UInt16>()
        list.add(0x1, x.map { UInt32(bitPattern: Int32($0)) })
        list.add(0x2, y.map { UInt32(bitPattern: Int32($0)) })
        list.add(0x4, width.map(UInt32.init))
        list.add(0x8, height.map(UInt32.init))
        list.add(0x10, borderWidth.map(UInt32.init))
        list.add(0x20, sibling?.rawValue)
        list.add(0x40, stackMode?.rawValue)
        guard list.mask != 0 else { throw .invalidArgument("ConfigureWindow: no change to make") }
        return list
    }
}

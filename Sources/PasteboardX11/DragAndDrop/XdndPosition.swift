/// XdndPosition, source to target, as the pointer moves over it (XDND spec, "XdndPosition"):
/// data.l[0] is the source window, data.l[1] reserved, data.l[2] the pointer in root
/// coordinates `(x << 16) | y`, data.l[3] the time of the move (the timestamp to convert
/// XdndSelection with while dragging), data.l[4] the action the user asks for.
public struct XdndPosition: Hashable, Sendable {
    public let source: WindowID
    public let point: XdndPoint
    public let time: X11Timestamp
    /// The requested action: an atom from a peer, any value (see `XdndAtoms.operation(for:)`).
    public let action: Atom

    public init(source: WindowID, point: XdndPoint, time: X11Timestamp, action: Atom) {
        self.source = source
        self.point = point
        self.time = time
        self.action = action
    }

    init(items: [UInt32]) throws(XdndError) {
        let window = try XdndMessage.peerWindow(items, of: "XdndPosition")
        self.init(source: window, point: XdndPoint(packed: items[2]), time: items[3], action: Atom(items[4]))
    }

    var items: [UInt32] { [source.rawValue, 0, point.packed, time, action.rawValue] }
}

/// XdndStatus, target to source, the answer to each XdndPosition (XDND spec, "XdndStatus"):
/// data.l[0] is the target window; data.l[1] bit 0 says the target would accept a drop here,
/// bit 1 that it wants XdndPosition for every move even inside the rectangle; data.l[2...3]
/// the rectangle in which no further position is needed; data.l[4] the accepted action, None
/// when the drop would be refused.
public struct XdndStatus: Hashable, Sendable {
    public let target: WindowID
    public let accepts: Bool
    public let wantsEveryPosition: Bool
    /// Where the answer holds without a further XdndPosition (ignored when `wantsEveryPosition`).
    public let quietRectangle: XdndRectangle
    /// The accepted action: an atom from a peer, any value; None when `accepts` is false.
    public let action: Atom

    public init(target: WindowID, accepts: Bool, wantsEveryPosition: Bool = true, quietRectangle: XdndRectangle = .empty, action: Atom) {
        self.target = target
        self.accepts = accepts
        self.wantsEveryPosition = wantsEveryPosition
        self.quietRectangle = quietRectangle
        self.action = accepts ? action : .none
    }

    init(items: [UInt32]) throws(XdndError) {
        let window = try XdndMessage.peerWindow(items, of: "XdndStatus")
        self.init(
            target: window, accepts: items[1] & 1 != 0, wantsEveryPosition: items[1] & 2 != 0,
            quietRectangle: XdndRectangle(packedOrigin: items[2], packedSize: items[3]), action: Atom(items[4]))
    }

    var items: [UInt32] {
        let flags: UInt32 = (accepts ? 1 : 0) | (wantsEveryPosition ? 2 : 0)
        return [target.rawValue, flags, quietRectangle.origin.packed, quietRectangle.packedSize, action.rawValue]
    }
}

/// XdndLeave, source to target, when the pointer leaves the target or the drag ends without a
/// drop on it (XDND spec, "XdndLeave"): data.l[0] is the source window, data.l[1] reserved.
public struct XdndLeave: Hashable, Sendable {
    public let source: WindowID

    public init(source: WindowID) { self.source = source }

    init(items: [UInt32]) throws(XdndError) {
        let window = try XdndMessage.peerWindow(items, of: "XdndLeave")
        source = window
    }

    var items: [UInt32] { [source.rawValue, 0, 0, 0, 0] }
}

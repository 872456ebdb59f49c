/// XdndDrop, source to target, when the button is released over a target that accepted (XDND
/// spec, "XdndDrop"): data.l[0] is the source window, data.l[1] reserved, data.l[2] the
/// timestamp the target must convert XdndSelection with.
public struct XdndDrop: Hashable, Sendable {
    public let source: WindowID
    public let time: X11Timestamp

    public init(source: WindowID, time: X11Timestamp) {
        self.source = source
        self.time = time
    }

    init(items: [UInt32]) throws(XdndError) {
        let window = try XdndMessage.peerWindow(items, of: "XdndDrop")
        self.init(source: window, time: items[2])
    }

    var items: [UInt32] { [source.rawValue, 0, time, 0, 0] }
}

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
        guard items.count == 5 else { throw .malformed("XdndDrop with \(items.count) items") }
        guard items[0] != 0 else { throw .malformed("XdndDrop from window None") }
        self.init(source: WindowID(items[0]), time: items[2])
    }

    var items: [UInt32] { [source.rawValue, 0, time, 0, 0] }
}

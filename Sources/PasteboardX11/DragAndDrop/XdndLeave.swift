/// XdndLeave, source to target, when the pointer leaves the target or the drag ends without a
/// drop on it (XDND spec, "XdndLeave"): data.l[0] is the source window, data.l[1] reserved.
public struct XdndLeave: Hashable, Sendable {
    public let source: WindowID

    public init(source: WindowID) { self.source = source }

    init(items: [UInt32]) throws(XdndError) {
        guard items.count == 5 else { throw .malformed("XdndLeave with \(items.count) items") }
        guard items[0] != 0 else { throw .malformed("XdndLeave from window None") }
        source = WindowID(items[0])
    }

    var items: [UInt32] { [source.rawValue, 0, 0, 0, 0] }
}

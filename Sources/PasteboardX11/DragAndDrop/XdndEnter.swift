/// XdndEnter, source to target, when the pointer enters a window that speaks XDND (XDND spec,
/// "XdndEnter"): data.l[0] is the source window; data.l[1] has the version to speak in its high
/// byte and in bit 0 whether the source offers more than three types (then the full list is
/// its XdndTypeList property); data.l[2...4] are the first three types, None where unused.
public struct XdndEnter: Hashable, Sendable {
    /// The window that drags (the one whose XdndTypeList lists every type).
    public let source: WindowID
    /// The version both sides speak: the lower of the source's and the target's XdndAware.
    public let version: XdndVersion
    /// True when there are more than three types: read them from the source's XdndTypeList.
    public let usesTypeList: Bool
    /// Up to three types (the first of the source's list), None slots removed.
    public let types: [Atom]

    /// The Enter announcing `types`, best first: the first three go in the message, and when
    /// there are more the message says to read the XdndTypeList property (which the caller sets).
    public init(source: WindowID, version: XdndVersion, offering types: [Atom]) {
        self.source = source
        self.version = version
        let offered = types.filter { $0 != .none }
        usesTypeList = offered.count > 3
        self.types = Array(offered.prefix(3))
    }

    init(items: [UInt32]) throws(XdndError) {
        let window = try XdndMessage.peerWindow(items, of: "XdndEnter")
        let rawVersion = items[1] >> 24
        // A byte after the shift, so the narrowing below cannot trap.
        guard let version = XdndVersion(rawValue: UInt8(rawVersion)) else { throw .unsupportedVersion(rawVersion) }
        source = window
        self.version = version
        usesTypeList = items[1] & 1 != 0
        types = items[2...4].map { Atom($0) }.filter { $0 != .none }
    }

    var items: [UInt32] {
        let padded = types.map(\.rawValue) + Array(repeating: 0, count: 3 - types.count)
        return [source.rawValue, UInt32(version.rawValue) << 24 | (usesTypeList ? 1 : 0)] + padded
    }
}

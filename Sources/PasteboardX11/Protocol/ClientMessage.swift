/// A ClientMessage event (code 33) of format 32, sent with SendEvent: how a client that takes a
/// manager selection announces itself on the root window (ICCCM §2.8, the `MANAGER` message),
/// so clients waiting for a manager (an application that wants a clipboard manager) hear of it,
/// and how the two sides of an XDND drag talk (`XdndMessage`).
public struct ClientMessage: Equatable, Sendable {
    /// The window the event is about (the root window for `MANAGER`).
    public let window: WindowID
    /// The message's type (the `MANAGER` atom).
    public let type: Atom
    /// The five 32-bit data items (fewer are padded with zeros).
    public let data: [UInt32]

    /// A message of `type` about `window` carrying up to five items.
    public init(window: WindowID, type: Atom, data: [UInt32]) throws(X11Error) {
        guard data.count <= 5 else { throw .invalidArgument("a ClientMessage carries at most five 32-bit items, not \(data.count)") }
        self.window = window
        self.type = type
        self.data = data + Array(repeating: 0, count: 5 - data.count)
    }

    /// ICCCM §2.8's announcement that `owner` manages `selection` since `time`.
    public static func manager(root: WindowID, managerAtom: Atom, time: X11Timestamp, selection: Atom, owner: WindowID) throws(X11Error) -> ClientMessage {
        try ClientMessage(window: root, type: managerAtom, data: [time, selection.rawValue, owner.rawValue])
    }

    /// The 32 bytes of the event, for SendEvent.
    public var encoded: [UInt8] {
        var writer = WireWriter()
        writer.u8(33)
        writer.u8(32)  // format
        writer.zeros(2)  // sequence (the server fills it in)
        writer.u32(window.rawValue)
        writer.u32(type.rawValue)
        for item in data { writer.u32(item) }
        return writer.bytes
    }
}

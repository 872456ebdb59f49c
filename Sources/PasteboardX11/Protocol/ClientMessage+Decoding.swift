extension ClientMessage {
    /// Decodes a ClientMessage event (code 33, with or without the SendEvent bit) of format 32,
    /// the only format the conventions this module speaks use (XDND, ICCCM §2.8). Every other
    /// code, format or length is refused with an error, never trapped on: another client chose
    /// these bytes (any client can SendEvent to our windows).
    public init(decoding packet: ArraySlice<UInt8>) throws(X11Error) {
        guard packet.count == 32 else { throw .malformedFromServer("ClientMessage of \(packet.count) bytes") }
        guard packet[packet.startIndex] & 0x7f == 33 else {
            throw .malformedFromServer("event \(packet[packet.startIndex] & 0x7f) is not a ClientMessage")
        }
        guard packet[packet.startIndex + 1] == 32 else {
            throw .malformedFromServer("ClientMessage of format \(packet[packet.startIndex + 1]), not 32")
        }
        // 32 bytes, checked above: the header of 4, window, type and five items of 4 each.
        func item(_ index: Int) -> UInt32 {
            let base = packet.startIndex + 4 * index
            return (0..<4).reduce(0) { value, byte in value | UInt32(packet[base + byte]) << UInt32(8 * byte) }
        }
        self.init(window: WindowID(item(1)), type: Atom(item(2)), fiveItems: (3..<8).map(item))
    }

    /// Decodes the 32 bytes of a ClientMessage event (see `init(decoding:)` on a slice).
    public init(decoding packet: [UInt8]) throws(X11Error) { try self.init(decoding: packet[...]) }

    /// A message of exactly five items, as decoding and XDND's messages always make: no check
    /// is left to fail.
    init(window: WindowID, type: Atom, fiveItems: [UInt32]) {
        self.window = window
        self.type = type
        data = fiveItems
    }
}

/// A message a session wants sent, and where: SendEvent goes to `destination` (the peer's
/// XdndProxy window when it has one, XDND spec "XdndProxy"), while the event's window field is
/// `window`, the peer itself.
public struct XdndEnvelope: Hashable, Sendable {
    /// The window the ClientMessage is about: the target, or the source for Status and Finished.
    public let window: WindowID
    /// The window SendEvent delivers to (equal to `window` without a proxy).
    public let destination: WindowID
    public let message: XdndMessage

    public init(window: WindowID, destination: WindowID? = nil, message: XdndMessage) {
        self.window = window
        self.destination = destination ?? window
        self.message = message
    }

    /// The 32 bytes to send with SendEvent (no event mask, no propagation: spec, "XdndProxy").
    public func encoded(atoms: XdndAtoms) -> [UInt8] { message.clientMessage(window: window, atoms: atoms).encoded }
}

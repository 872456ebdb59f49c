/// One of XDND's six client messages (XDND spec, "Client Messages"), each a format-32
/// ClientMessage whose type is the message's atom and whose window is the window it is sent to
/// (the target for the source's messages, the source for the target's, also when an XdndProxy
/// window receives them).
public enum XdndMessage: Hashable, Sendable {
    case enter(XdndEnter)
    case position(XdndPosition)
    case status(XdndStatus)
    case leave(XdndLeave)
    case drop(XdndDrop)
    case finished(XdndFinished)

    /// Decodes `message` against `atoms`: a type that is no XDND message, a window of None or an
    /// XdndEnter's version outside 3...5 is refused with an error.
    public init(decoding message: ClientMessage, atoms: XdndAtoms) throws(XdndError) {
        let items = message.data
        switch message.type {
        case atoms.enter: self = .enter(try XdndEnter(items: items))
        case atoms.position: self = .position(try XdndPosition(items: items))
        case atoms.status: self = .status(try XdndStatus(items: items))
        case atoms.leave: self = .leave(try XdndLeave(items: items))
        case atoms.drop: self = .drop(try XdndDrop(items: items))
        case atoms.finished: self = .finished(try XdndFinished(items: items))
        default: throw .notXdnd(type: message.type)
        }
    }

    /// The message's atom.
    public func type(in atoms: XdndAtoms) -> Atom {
        switch self {
        case .enter: atoms.enter
        case .position: atoms.position
        case .status: atoms.status
        case .leave: atoms.leave
        case .drop: atoms.drop
        case .finished: atoms.finished
        }
    }

    /// The ClientMessage carrying this message about `window` (the peer it is meant for).
    public func clientMessage(window: WindowID, atoms: XdndAtoms) -> ClientMessage {
        ClientMessage(window: window, type: type(in: atoms), fiveItems: items)
    }

    var items: [UInt32] {
        switch self {
        case let .enter(message): message.items
        case let .position(message): message.items
        case let .status(message): message.items
        case let .leave(message): message.items
        case let .drop(message): message.items
        case let .finished(message): message.items
        }
    }

    /// The window a decoded message is from (data.l[0] of every XDND message: the source's or
    /// the target's), refused when the items are not five or the window is None.
    static func peerWindow(_ items: [UInt32], of name: String) throws(XdndError) -> WindowID {
        guard items.count == 5 else { throw .malformed("\(name) with \(items.count) items") }
        guard items[0] != 0 else { throw .malformed("\(name) from window None") }
        return WindowID(items[0])
    }
}

/// A top-level client window's WM_STATE property (ICCCM §4.1.3.1: type WM_STATE, format 32,
/// the state and the icon window), set by the window manager on every client window it manages.
/// Why the drag needs it: a reparenting window manager puts each client in a frame, so the
/// root's child under the pointer is the frame; the window carrying WM_STATE below it is the
/// client's top-level, the one with XdndAware (XDND spec: the source finds the top-level window).
public struct WMState: Equatable, Sendable {
    /// ICCCM's three states.
    public enum State: UInt32, Sendable {
        case withdrawn = 0, normal = 1, iconic = 3
    }

    public let state: State
    /// The icon window, None if none.
    public let icon: WindowID

    public init(state: State, icon: WindowID) {
        self.state = state
        self.icon = icon
    }

    /// GetProperty reading `window`'s WM_STATE (`property` and `type` are the interned
    /// WM_STATE atom): its two items.
    public static func read(of window: WindowID, wmState: Atom) -> X11Request {
        .getProperty(window: window, property: wmState, type: wmState, longLength: 2, delete: false)
    }

    /// The state in a WM_STATE read; nil when the window has none (not a managed top-level).
    /// A property of the wrong type or format, too short, or of an unknown state is refused:
    /// the window manager broke ICCCM, and guessing would pick the wrong window.
    public init?(property: PropertyValue, wmState: Atom) throws(X11Error) {
        if property.type == .none { return nil }
        guard property.type == wmState, property.format == 32 else {
            throw .malformedFromServer("WM_STATE of type \(property.type) and format \(property.format)")
        }
        let items = property.items32
        guard items.count >= 2 else { throw .malformedFromServer("WM_STATE of \(items.count) items, not 2") }
        guard let state = State(rawValue: items[0]) else { throw .malformedFromServer("WM_STATE state \(items[0])") }
        self.init(state: state, icon: WindowID(items[1]))
    }
}

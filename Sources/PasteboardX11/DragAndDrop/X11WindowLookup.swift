/// `XdndWindowLookup` answered by an X server: TranslateCoordinates and GetProperty round
/// trips on `connection`, from the thread of the session that owns it (they block, as every
/// request of a session does). What comes back is checked as any peer's words: a property of
/// the wrong type or format is taken as absent, a malformed WM_STATE as none.
public struct X11WindowLookup: XdndWindowLookup {
    let connection: X11Connection
    let root: WindowID
    let atoms: XdndAtoms
    let wmState: Atom
    let timeout: Duration

    /// A lookup on `connection`, whose root is `root`, with XDND's atoms and WM_STATE interned.
    public init(connection: X11Connection, root: WindowID, atoms: XdndAtoms, wmState: Atom, timeout: Duration = .seconds(2)) {
        self.connection = connection
        self.root = root
        self.atoms = atoms
        self.wmState = wmState
        self.timeout = timeout
    }

    public func child(of window: WindowID, containingRootX x: Int16, y: Int16) throws -> WindowID? {
        let point = try X11Reply.translateCoordinates(
            try connection.roundTrip(.translateCoordinates(from: root, to: window, x: x, y: y), timeout: timeout))
        guard point.sameScreen, point.child != .none else { return nil }
        return point.child
    }

    public func hasWMState(_ window: WindowID) throws -> Bool {
        let property = try X11Reply.getProperty(try connection.roundTrip(WMState.read(of: window, wmState: wmState), timeout: timeout))
        return (try? WMState(property: property, wmState: wmState)) != nil
    }

    public func awareVersion(of window: WindowID) throws -> UInt32? {
        let property = try X11Reply.getProperty(try connection.roundTrip(atoms.readAware(of: window), timeout: timeout))
        guard property.type == .atom, property.format == 32 else { return nil }
        return property.items32.first
    }

    public func proxy(of window: WindowID) throws -> WindowID? {
        let property = try X11Reply.getProperty(try connection.roundTrip(
            .getProperty(window: window, property: atoms.proxy, type: .window, longLength: 1, delete: false), timeout: timeout))
        guard property.type == .window, property.format == 32, let proxy = property.items32.first, proxy != 0 else { return nil }
        return WindowID(proxy)
    }
}

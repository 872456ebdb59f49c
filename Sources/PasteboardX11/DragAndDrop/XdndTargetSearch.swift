/// What finding the window under the pointer asks the X server, through whoever owns the
/// connection (`X11WindowLookup` on a session's thread, whose requests block as every X11
/// session's do; a test's fake).
public protocol XdndWindowLookup {
    /// The child of `window` that contains the root point (`x`, `y`), nil when none does
    /// (TranslateCoordinates from the root to `window`).
    func child(of window: WindowID, containingRootX x: Int16, y: Int16) throws -> WindowID?
    /// Whether `window` has a WM_STATE property: a window manager put it on a client's
    /// top-level window, which is where XDND's search ends.
    func hasWMState(_ window: WindowID) throws -> Bool
    /// The number in `window`'s XdndAware property, nil without one (of type ATOM, format 32).
    func awareVersion(of window: WindowID) throws -> UInt32?
    /// The window `window`'s XdndProxy names, nil without one.
    func proxy(of window: WindowID) throws -> WindowID?
}

/// Finding the window a drag is over (XDND spec, "Finding the target"): from the root, down
/// through the child under the pointer at each level, to the first window with XdndAware, or
/// to the client's top-level window (WM_STATE) when none has it, which then is no drop target.
/// A proxy (XdndProxy) on the window found takes its messages. The walk is bounded (32
/// levels) and never revisits a window, whatever a server or a peer's properties say.
public enum XdndTargetSearch {
    /// The most levels walked down from the root.
    public static let depthLimit = 32

    /// The window under the root point (`x`, `y`): one with its XdndAware version (and proxy),
    /// a top-level without XdndAware (`awareVersion` nil: no drop target there), or nil over
    /// the bare root. `ignoring` windows (our own drag handle) are looked through as if absent:
    /// the search then ends on the level above them.
    public static func window(
        underRootX x: Int16, y: Int16, root: WindowID, ignoring ignored: Set<WindowID> = [], lookup: some XdndWindowLookup
    ) throws -> XdndTargetWindow? {
        var current = root
        var visited: Set<WindowID> = [root]
        for _ in 0..<depthLimit {
            if current != root, let version = try lookup.awareVersion(of: current) {
                return XdndTargetWindow(window: current, awareVersion: version, proxy: try lookup.proxy(of: current))
            }
            if current != root, try lookup.hasWMState(current) {
                return XdndTargetWindow(window: current, awareVersion: nil)
            }
            guard let child = try lookup.child(of: current, containingRootX: x, y: y), child != .none,
                  !ignored.contains(child), visited.insert(child).inserted else {
                return current == root ? nil : XdndTargetWindow(window: current, awareVersion: nil)
            }
            current = child
        }
        return XdndTargetWindow(window: current, awareVersion: nil)
    }
}

/// A change of a selection's owner, as XFIXES reports it.
public struct OwnerChange: Equatable, Sendable {
    public let selection: String
    public let kind: X11Event.OwnerChangeKind
    /// The new owner; none when the selection was lost (the owner's window destroyed or its
    /// client gone).
    public let owner: WindowID
    /// When the server reported the change, and when the owner says it took the selection
    /// (SetSelectionOwner's time: what tells a new copy from the same owner again).
    public let timestamp: X11Timestamp
    public let selectionTimestamp: X11Timestamp
}

extension X11Connection {
    /// Calls `handler` for every owner change of `selections` (XFixesSelectSelectionInput on a
    /// window of its own), until `handler` returns false. No polling: the server tells us.
    /// Throws `.cancelled` when cancelled, `.timedOut` when `idleTimeout` passes without a change.
    /// `onWatching` runs once the server selected the notifications: a change from then on is
    /// reported, so a caller that looks at the current owner there misses none.
    public func watchOwnerChanges(
        selections: [String], idleTimeout: Duration? = nil, onWatching: () -> Void = {}, handler: (OwnerChange) throws -> Bool
    ) throws(X11Error) {
        let xfixes = try enableXFixes()
        let atoms = try internAtoms(selections)
        let window = try createWindow()
        defer { _ = try? send(.destroyWindow(window), ignoringErrors: true) }
        for atom in atoms {
            try send(XFixes.selectSelectionInput(majorOpcode: xfixes.majorOpcode, window: window, selection: atom, mask: .all))
        }
        try sync()
        onWatching()
        while true {
            let event = try nextEvent(deadline: idleTimeout.map { X11Deadline(after: $0) }, what: "an owner change of \(selections.joined(separator: ", "))") { event in
                if case let .xfixesSelectionNotify(notify) = event { return notify.window == window }
                return false
            }
            guard case let .xfixesSelectionNotify(notify) = event, let index = atoms.firstIndex(of: notify.selection) else { continue }
            let change = OwnerChange(
                selection: selections[index], kind: notify.kind, owner: notify.owner,
                timestamp: notify.timestamp, selectionTimestamp: notify.selectionTimestamp)
            let goOn: Bool
            do { goOn = try handler(change) } catch let error as X11Error { throw error } catch { throw .invalidArgument("the owner-change handler failed: \(error)") }
            if !goOn { return }
        }
    }
}

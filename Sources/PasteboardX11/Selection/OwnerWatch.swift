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
    ///
    /// With `quietPeriod`, a change is reported only once no newer change of the same selection
    /// came for that long, and then only the newest: the primary selection changes owner with
    /// every click-and-drag, and only where the user stopped is a selection worth reading.
    public func watchOwnerChanges(
        selections: [String], idleTimeout: Duration? = nil, quietPeriod: Duration? = nil,
        onWatching: () -> Void = {}, handler: (OwnerChange) throws -> Bool
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
        let what = "an owner change of \(selections.joined(separator: ", "))"
        // Changes held back for the quiet period, by selection, with when each may be reported.
        var pending: [(change: OwnerChange, due: ContinuousClock.Instant)] = []
        func deliver(_ change: OwnerChange) throws(X11Error) -> Bool {
            do { return try handler(change) } catch let error as X11Error { throw error } catch { throw .invalidArgument("the owner-change handler failed: \(error)") }
        }
        var idleDeadline = idleTimeout.map { X11Deadline(after: $0) }
        while true {
            let now = ContinuousClock.now
            while let due = pending.firstIndex(where: { $0.due <= now }) {
                let change = pending.remove(at: due).change
                guard try deliver(change) else { return }
            }
            var deadline = idleDeadline
            if let soonest = pending.map(\.due).min() {
                let wait = X11Deadline(after: soonest - .now)
                if deadline.map({ wait.instant < $0.instant }) ?? true { deadline = wait }
            }
            let event: X11Event
            do {
                event = try nextEvent(deadline: deadline, what: what) { event in
                    if case let .xfixesSelectionNotify(notify) = event { return notify.window == window }
                    return false
                }
            } catch .timedOut(let waited, let seconds) {
                // A quiet period ended: its change is reported at the top of the loop.
                if !pending.isEmpty, idleDeadline.map({ ContinuousClock.now < $0.instant }) ?? true { continue }
                throw .timedOut(what: waited, seconds: seconds)
            }
            guard case let .xfixesSelectionNotify(notify) = event, let index = atoms.firstIndex(of: notify.selection) else { continue }
            if let idleTimeout { idleDeadline = X11Deadline(after: idleTimeout) }
            let change = OwnerChange(
                selection: selections[index], kind: notify.kind, owner: notify.owner,
                timestamp: notify.timestamp, selectionTimestamp: notify.selectionTimestamp)
            if let quietPeriod {
                pending.removeAll { $0.change.selection == change.selection }
                pending.append((change, .now + quietPeriod))
                continue
            }
            guard try deliver(change) else { return }
        }
    }
}

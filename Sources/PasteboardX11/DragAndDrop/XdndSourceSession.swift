/// The side of an XDND drag that drags (our drag handle), without I/O: the caller feeds it the
/// pointer's moves, the button's release, Esc, the XDND messages that arrived for the source
/// window and the passing of time, and sends the envelopes each call returns (XDND spec,
/// "Example walk-through"). The session ends with `outcome`.
///
/// - Moving onto another window sends XdndLeave to the old target and XdndEnter to the new one
///   in the lower of our version and its XdndAware (windows below version 3 are no target).
/// - XdndPosition is throttled as the spec asks: one outstanding until its XdndStatus, the
///   latest move kept and sent when the Status comes; none inside the Status's rectangle unless
///   the target wants every position.
/// - A Status or Finished from a window that is not the current target, or one the session is
///   not waiting for, is ignored: peers can send anything, and only the target's answers count.
/// - On release, XdndDrop if the target's last Status accepted, else XdndLeave (`.forbidden`,
///   or `.cancelled` over no target); a release while a Position awaits its Status waits for
///   it, up to `statusTimeout`.
/// - After XdndDrop only XdndFinished ends the drag, or `finishedTimeout` (`.failed`). A move
///   is reported only from a version-5 Finished with success and XdndActionMove on a drag that
///   asked for move. Before version 5 a Finished carries no outcome (its fields are reserved),
///   so a version-3 or -4 target's Finished is reported as a finished copy: the original is
///   kept, since nothing told us the move was performed (GTK reads the outcome bits only from
///   version-5 targets too; an old target's DELETE conversion of XdndSelection is left unread).
///
/// The caller owns XdndSelection from the drag's start (with `source`) and serves the target's
/// conversions at the times it names. XDND numbers no message, so a Status a target sent before
/// the pointer left it and came back is taken as an answer to the new visit, as toolkits do.
public struct XdndSourceSession: Sendable {
    /// How long a release waits for the Status of an outstanding Position.
    public static let defaultStatusTimeout: Duration = .seconds(2)
    /// How long XdndFinished is waited for after XdndDrop, restarted by `selectionRequested`:
    /// long enough for a target that reads a large drop slowly.
    public static let defaultFinishedTimeout: Duration = .seconds(30)

    /// Our window, which owns XdndSelection and gets the target's messages.
    public let source: WindowID
    /// The types offered, best first (set as XdndTypeList when `needsTypeList`).
    public let types: [Atom]
    /// The operation the drag asks for (XdndPosition's action).
    public let requestedOperation: XdndOperation
    public let atoms: XdndAtoms
    public let statusTimeout: Duration
    public let finishedTimeout: Duration

    /// The current target, when the pointer is over a window that speaks XDND.
    public private(set) var target: XdndTargetWindow?
    /// The version spoken with `target`.
    public private(set) var version: XdndVersion?
    /// What the current target last answered.
    public private(set) var answer: XdndTargetAnswer = .none
    /// How the drag ended; nil while it goes on. Once set, every further call returns nothing.
    public private(set) var outcome: XdndDragOutcome?
    /// When the caller must call `timeElapsed(now:)`: set while a release or a drop awaits an answer.
    public private(set) var deadline: ContinuousClock.Instant?

    private enum Phase: Sendable {
        case dragging
        /// Released while a Position awaited its Status; `time` is the release's.
        case releasePending(time: X11Timestamp)
        case dropped
        case ended
    }

    private var phase: Phase = .dragging
    private var positionOutstanding = false
    /// The latest move made while a Position was outstanding, sent when its Status comes.
    private var pendingMove: (point: XdndPoint, time: X11Timestamp)?
    private var lastStatus: XdndStatus?

    public init(
        source: WindowID, types: [Atom], requestedOperation: XdndOperation, atoms: XdndAtoms,
        statusTimeout: Duration = defaultStatusTimeout, finishedTimeout: Duration = defaultFinishedTimeout
    ) {
        self.source = source
        self.types = types.filter { $0 != .none }
        self.requestedOperation = requestedOperation
        self.atoms = atoms
        self.statusTimeout = statusTimeout
        self.finishedTimeout = finishedTimeout
    }

    /// More than three types: the caller sets XdndTypeList (type ATOM) on `source` before the
    /// first Enter (spec, "XdndEnter").
    public var needsTypeList: Bool { types.count > 3 }

    /// The pointer is at `point` (root coordinates) at `time`, over `window` (the top-level
    /// window under it, nil over none): Leave, Enter and Position as the spec asks.
    public mutating func pointerMoved(over window: XdndTargetWindow?, to point: XdndPoint, time: X11Timestamp) -> [XdndEnvelope] {
        guard case .dragging = phase else { return [] }
        var envelopes: [XdndEnvelope] = []
        if let target, target.window != window?.window || window?.version == nil {
            envelopes.append(envelope(to: target, .leave(XdndLeave(source: source))))
            forgetTarget()
        }
        guard let window, let windowVersion = window.version else { return envelopes }
        if target == nil {
            target = window
            version = windowVersion
            envelopes.append(envelope(to: window, .enter(XdndEnter(source: source, version: windowVersion, offering: types))))
        }
        if positionOutstanding {
            pendingMove = (point, time)
        } else if let lastStatus, !lastStatus.wantsEveryPosition, lastStatus.quietRectangle.contains(point) {
            // The target's answer holds here without asking again.
        } else {
            envelopes.append(position(point, time: time, to: window))
        }
        return envelopes
    }

    /// An XDND message arrived for `source`: Status and Finished from the current target are
    /// used, anything else is ignored.
    public mutating func received(_ message: XdndMessage, now: ContinuousClock.Instant) -> [XdndEnvelope] {
        switch message {
        case let .status(status): received(status, now: now)
        case let .finished(finished): received(finished)
        case .enter, .position, .leave, .drop: []
        }
    }

    /// The button was released at `time`: XdndDrop if the target accepted, else XdndLeave.
    public mutating func buttonReleased(time: X11Timestamp, now: ContinuousClock.Instant) -> [XdndEnvelope] {
        guard case .dragging = phase else { return [] }
        guard target != nil else { return end(.cancelled) }
        if positionOutstanding {
            phase = .releasePending(time: time)
            deadline = now + statusTimeout
            return []
        }
        return decideDrop(time: time, now: now)
    }

    /// Esc: XdndLeave to the target and `.cancelled`, unless the drop was already sent (then
    /// only XdndFinished or the timeout ends the drag).
    public mutating func escapePressed() -> [XdndEnvelope] {
        switch phase {
        case .dragging, .releasePending: leaveAndEnd(.cancelled)
        case .dropped, .ended: []
        }
    }

    /// The target converted XdndSelection after the drop: it is alive, so the wait for Finished restarts.
    public mutating func selectionRequested(now: ContinuousClock.Instant) {
        if case .dropped = phase { deadline = now + finishedTimeout }
    }

    /// Time passed: a release that waited too long for its Status sends Leave (`.failed(.noStatus)`),
    /// a drop that waited too long for Finished ends `.failed(.noFinished)`.
    public mutating func timeElapsed(now: ContinuousClock.Instant) -> [XdndEnvelope] {
        guard let deadline, now >= deadline else { return [] }
        switch phase {
        case .releasePending: return leaveAndEnd(.failed(.noStatus))
        case .dropped: return end(.failed(.noFinished))
        case .dragging, .ended: return []
        }
    }

    // MARK: - Answers

    private mutating func received(_ status: XdndStatus, now: ContinuousClock.Instant) -> [XdndEnvelope] {
        guard let target, status.target == target.window else { return [] }
        switch phase {
        case .dragging, .releasePending: break
        case .dropped, .ended: return []
        }
        // An unsolicited Status from the current target updates its answer too (toolkits send
        // one when they decide late); only the outstanding flag is about our last Position.
        lastStatus = status
        answer = status.accepts ? .accepted(acceptedOperation(status.action)) : .refused
        positionOutstanding = false
        if case let .releasePending(time) = phase {
            pendingMove = nil
            return decideDrop(time: time, now: now)
        }
        guard let move = pendingMove else { return [] }
        pendingMove = nil
        if !status.wantsEveryPosition, status.quietRectangle.contains(move.point) { return [] }
        return [position(move.point, time: move.time, to: target)]
    }

    private mutating func received(_ finished: XdndFinished) -> [XdndEnvelope] {
        guard case .dropped = phase, let target, finished.target == target.window, let version else { return [] }
        guard version.reportsFinishedOutcome else { return end(.finished(.copy)) }
        guard finished.succeeded else { return end(.failed(.targetFailed)) }
        let performed: XdndOperation = atoms.operation(for: finished.action) == .move && requestedOperation == .move ? .move : .copy
        return end(.finished(performed))
    }

    /// The operation an accepting Status names: move only when we asked for it (the spec lets a
    /// target accept the requested action, copy or private; private keeps our original, a copy).
    private func acceptedOperation(_ action: Atom) -> XdndOperation {
        atoms.operation(for: action) == .move && requestedOperation == .move ? .move : .copy
    }

    // MARK: - Steps

    private mutating func decideDrop(time: X11Timestamp, now: ContinuousClock.Instant) -> [XdndEnvelope] {
        guard let target, case .accepted = answer else { return leaveAndEnd(.forbidden) }
        phase = .dropped
        deadline = now + finishedTimeout
        return [envelope(to: target, .drop(XdndDrop(source: source, time: time)))]
    }

    private mutating func position(_ point: XdndPoint, time: X11Timestamp, to target: XdndTargetWindow) -> XdndEnvelope {
        positionOutstanding = true
        let message = XdndPosition(source: source, point: point, time: time, action: atoms.action(for: requestedOperation))
        return envelope(to: target, .position(message))
    }

    private mutating func leaveAndEnd(_ outcome: XdndDragOutcome) -> [XdndEnvelope] {
        let leave = target.map { envelope(to: $0, .leave(XdndLeave(source: source))) }
        return (leave.map { [$0] } ?? []) + end(outcome)
    }

    private mutating func end(_ outcome: XdndDragOutcome) -> [XdndEnvelope] {
        self.outcome = outcome
        phase = .ended
        deadline = nil
        return []
    }

    private mutating func forgetTarget() {
        target = nil
        version = nil
        answer = .none
        lastStatus = nil
        positionOutstanding = false
        pendingMove = nil
    }

    private func envelope(to target: XdndTargetWindow, _ message: XdndMessage) -> XdndEnvelope {
        XdndEnvelope(window: target.window, destination: target.proxy, message: message)
    }
}

/// The X thread of an `X11DragHandle`: shows the window, waits for a press on it, then runs one
/// `XdndSourceSession` at a time under a pointer and keyboard grab, sending what it returns,
/// until the handle is closed.
struct DragHandleLoop {
    private let connection: X11Connection
    private let control: DragHandleControl
    private let onEvent: @Sendable (X11DragHandle.Event) -> Void
    private let window: X11PictureWindow
    private let atoms: XdndAtoms
    private let types: [Atom]
    private let requestedOperation: XdndOperation
    private let finishedTimeout: Duration
    private let escape: Set<UInt8>
    private let lookup: X11WindowLookup
    private var drag: XdndSourceSession?
    private var escaped = false
    private var grabbed = false

    /// The pointer events a drag follows, reported to the handle while it grabs the pointer.
    static let grabEvents = EventMask.pointerMotion | EventMask.buttonRelease

    init(handle: X11DragHandle, connection: X11Connection, control: DragHandleControl, onEvent: @escaping @Sendable (X11DragHandle.Event) -> Void) throws {
        self.connection = connection
        self.control = control
        self.onEvent = onEvent
        requestedOperation = handle.requestedOperation
        finishedTimeout = handle.finishedTimeout
        let offered = Array(handle.types.prefix(XdndTargetSession.maximumTypeCount))
        let interned = try connection.internAtoms(XdndAtoms.names + ["WM_STATE"] + offered)
        atoms = try XdndAtoms(interned: Array(interned.prefix(XdndAtoms.names.count)))
        let wmState = interned[XdndAtoms.names.count]
        types = Array(interned.suffix(offered.count))
        let root = connection.setup.root
        let origin: (x: Int, y: Int)
        if let asked = handle.origin {
            origin = asked
        } else {
            let pointer = try X11Reply.queryPointer(try connection.roundTrip(.queryPointer(root)))
            origin = (Int(pointer.rootX) + 16, Int(pointer.rootY) + 16)
        }
        let picture = handle.picture
        window = try X11PictureWindow(
            connection: connection, title: picture.title, x: origin.x, y: origin.y,
            width: picture.width, height: picture.height, pixels: picture.pixels)
        escape = try connection.keycodes(for: .escape)
        lookup = X11WindowLookup(connection: connection, root: root, atoms: atoms, wmState: wmState)
        if types.count > 3 { try connection.send(try atoms.typeList(on: window.window, types: types)) }
        try connection.sync()
        onEvent(.shown(window.window))
    }

    mutating func run() throws {
        defer { window.close() }
        while true {
            let asked = control.take()
            if asked.close {
                if drag != nil { escaped = true; try send(drag?.escapePressed() ?? []) }
                try endDragIfOver(force: true)
                return
            }
            if asked.converted { drag?.selectionRequested(now: .now) }
            let event = try connection.waitForEvent(until: drag?.deadline, wakeup: control.wakeup) { _ in true }
            if drag?.deadline.map({ ContinuousClock.now >= $0 }) == true {
                try send(drag?.timeElapsed(now: .now) ?? [])
            }
            if let event { try handle(event) }
            try endDragIfOver(force: false)
        }
    }

    private mutating func handle(_ event: X11Event) throws {
        if try window.handle(event) { return }
        switch event {
        case let .buttonPress(press) where press.detail == 1 && press.pointer.event == window.window && drag == nil:
            try begin(at: press.pointer.time)
        case let .motionNotify(motion) where drag != nil:
            let pointer = motion.pointer
            let target = try targetUnder(pointer)
            try send(drag?.pointerMoved(over: target, to: XdndPoint(x: pointer.rootX, y: pointer.rootY), time: pointer.time) ?? [])
        case let .buttonRelease(release) where release.detail == 1 && drag != nil:
            try send(drag?.buttonReleased(time: release.pointer.time, now: .now) ?? [])
            // The button is up: the user is no longer dragging, whatever the target still answers.
            try ungrab()
        case let .keyPress(key) where drag != nil && escape.contains(key.detail):
            escaped = true
            try send(drag?.escapePressed() ?? [])
        case let .clientMessage(message) where message.window == window.window && drag != nil:
            // Only XDND's messages are ours here; anything else a peer sends is ignored.
            guard let xdnd = try? XdndMessage(decoding: message, atoms: atoms) else { return }
            try send(drag?.received(xdnd, now: .now) ?? [])
        default:
            break
        }
    }

    /// A press on the handle: grab the pointer and keyboard, and start a drag. A grab refused
    /// (another client holds one) starts no drag; the handle waits for the next press.
    private mutating func begin(at time: X11Timestamp) throws {
        let pointer = try X11Reply.grabStatus(try connection.roundTrip(
            try .grabPointer(window.window, eventMask: Self.grabEvents, time: time)))
        guard pointer == .success else { return }
        grabbed = true
        // Without the keyboard, Esc cannot cancel; the drag still works.
        _ = try X11Reply.grabStatus(try connection.roundTrip(.grabKeyboard(window.window, time: time)))
        escaped = false
        drag = XdndSourceSession(
            source: window.window, types: types, requestedOperation: requestedOperation, atoms: atoms, finishedTimeout: finishedTimeout)
        onEvent(.pressed)
    }

    private mutating func ungrab() throws {
        guard grabbed else { return }
        grabbed = false
        try connection.send(.ungrabPointer())
        try connection.send(.ungrabKeyboard())
    }

    /// Reports the end of a drag that has an outcome (or, closing, of any) and forgets it.
    private mutating func endDragIfOver(force: Bool) throws {
        guard let current = drag else { return }
        guard let outcome = current.outcome ?? (force ? .cancelled : nil) else { return }
        try ungrab()
        drag = nil
        onEvent(.ended(outcome, byEscape: escaped))
    }

    private func send(_ envelopes: [XdndEnvelope]) throws {
        for envelope in envelopes {
            if case .drop = envelope.message, case let .accepted(operation)? = drag?.answer {
                onEvent(.dropping(operation))
            }
            // A target may be gone by now: its BadWindow is no failure of ours.
            try connection.send(
                .sendEvent(envelope.message.clientMessage(window: envelope.window, atoms: atoms), to: envelope.destination),
                ignoringErrors: true)
        }
    }

    /// The window under the pointer. A window destroyed while it was looked at (BadWindow for
    /// a look-up) is no target; the connection failing is the handle's failure.
    private func targetUnder(_ pointer: X11Event.PointerSnapshot) throws -> XdndTargetWindow? {
        do {
            return try XdndTargetSearch.window(
                underRootX: pointer.rootX, y: pointer.rootY, root: connection.setup.root, ignoring: [window.window], lookup: lookup)
        } catch let error as X11Error {
            if case .request = error { return nil }
            throw error
        }
    }
}

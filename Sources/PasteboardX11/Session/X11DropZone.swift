import PasteboardSystem
import Synchronization

/// A drop zone on the X11 desktop: a small window (`X11PictureWindow`) with XdndAware, into which
/// any application speaking XDND drops. It answers the source's positions by `accepting` (the
/// first name of it the source offers is the one the zone wants) and the operations it takes
/// (`XdndTargetSession`); a drop is reported as `.dropped`, and the caller, once it delivered the
/// data (or failed), calls `finishDrop(performed:)`, which answers XdndFinished. Until then the
/// zone takes no other drag.
///
/// The zone does not read the data: the caller converts XdndSelection itself (an
/// `X11SelectionFetch` per type, while the source waits for the Finished).
public final class X11DropZone: Sendable {
    /// A drop into the zone, before its data was read.
    public struct Drop: Sendable, Equatable {
        /// The source's window, which owns XdndSelection for it.
        public let source: WindowID
        /// Every type the source offered, its order.
        public let offered: [String]
        /// The type the zone accepted the drag for.
        public let chosen: String
        /// The operation the source asked for and the zone accepted.
        public let operation: XdndOperation
        /// Who owned XdndSelection when the drop came (nil: nobody): every read of the drop
        /// (and a move's DELETE) must come from it, not from whoever drags next.
        public let owner: WindowID?
    }

    /// What happened at the zone.
    public enum Event: Sendable, Equatable {
        /// The window is up.
        case shown(WindowID)
        /// A drag was dropped: read its data, then `finishDrop(performed:)`.
        case dropped(Drop)
        /// A drop's Finished was sent: `performed` nil when it failed.
        case finished(performed: XdndOperation?)
    }

    let display: X11Display
    let picture: X11DragHandle.Picture
    let accepting: [String]
    let operations: Set<XdndOperation>
    let origin: (x: Int, y: Int)?
    private let control: DropZoneControl

    /// A zone showing `picture` at `origin` (nil: just below and right of the pointer), taking
    /// drags that offer one of `accepting` (MIME types or X11 targets, best first; empty: any)
    /// with one of `operations`.
    public init(
        display: X11Display, picture: X11DragHandle.Picture, accepting: [String], operations: Set<XdndOperation>,
        origin: (x: Int, y: Int)? = nil
    ) throws(X11Error) {
        guard !operations.isEmpty else { throw .invalidArgument("a drop zone needs at least one operation") }
        self.display = display
        self.picture = picture
        self.accepting = accepting
        self.operations = operations
        self.origin = origin
        control = try DropZoneControl()
    }

    /// The drop reported by `.dropped` was delivered as `performed` (nil: it failed): the
    /// source hears XdndFinished. Callable from any thread.
    public func finishDrop(performed: XdndOperation?) { control.finish(performed) }

    /// Takes the zone away (a drop being read is finished as failed). Callable from any thread.
    public func close() { control.requestClose() }

    /// Shows the zone and takes drops until `close()` or the task's cancellation (returns) or
    /// the X connection fails (throws).
    public func run(onEvent: @escaping @Sendable (Event) -> Void) async throws(X11Error) {
        let session = try X11SessionThread.start(on: display) { [self] (connection) throws(X11Error) in
            do {
                var loop = try DropZoneLoop(zone: self, connection: connection, control: control, onEvent: onEvent)
                try loop.run()
            } catch let error as X11Error {
                throw error
            } catch {
                throw .malformedFromServer("\(error)")
            }
        }
        try await session.finish()
    }
}

/// What the async side asks of a zone's X thread: to close, and a drop's end.
final class DropZoneControl: Sendable {
    private struct State {
        var closeRequested = false
        var finished: XdndOperation??
    }

    private let state = Mutex(State())
    let wakeup: X11Wakeup

    init() throws(X11Error) { wakeup = try X11Wakeup() }

    func requestClose() {
        state.withLock { $0.closeRequested = true }
        wakeup.signal()
    }

    func finish(_ performed: XdndOperation?) {
        state.withLock { $0.finished = .some(performed) }
        wakeup.signal()
    }

    /// The X thread: whether to close, and a drop's end if one was told since the last call.
    func take() -> (close: Bool, finished: XdndOperation??) {
        state.withLock { state in
            defer { state.finished = nil }
            return (state.closeRequested, state.finished)
        }
    }
}

/// The X thread of an `X11DropZone`: the window with XdndAware, an `XdndTargetSession`, and the
/// steps it asks for.
struct DropZoneLoop {
    private let connection: X11Connection
    private let control: DropZoneControl
    private let onEvent: @Sendable (X11DropZone.Event) -> Void
    private let window: X11PictureWindow
    private let atoms: XdndAtoms
    private var target: XdndTargetSession

    init(zone: X11DropZone, connection: X11Connection, control: DropZoneControl, onEvent: @escaping @Sendable (X11DropZone.Event) -> Void) throws {
        self.connection = connection
        self.control = control
        self.onEvent = onEvent
        let accepting = Array(zone.accepting.prefix(XdndTargetSession.maximumTypeCount))
        let interned = try connection.internAtoms(XdndAtoms.names + accepting)
        let atoms = try XdndAtoms(interned: Array(interned.prefix(XdndAtoms.names.count)))
        self.atoms = atoms
        let wanted = Array(interned.suffix(accepting.count))
        let origin: (x: Int, y: Int)
        if let asked = zone.origin {
            origin = asked
        } else {
            let pointer = try X11Reply.queryPointer(try connection.roundTrip(.queryPointer(connection.setup.root)))
            origin = (Int(pointer.rootX) + 16, Int(pointer.rootY) + 16)
        }
        let picture = zone.picture
        // Crossing events only redraw nothing; the zone needs no input of its own.
        window = try X11PictureWindow(
            connection: connection, title: picture.title, x: origin.x, y: origin.y,
            width: picture.width, height: picture.height, pixels: picture.pixels, events: 0)
        try connection.send(try atoms.announceAware(on: window.window))
        target = XdndTargetSession(window: window.window, atoms: atoms, allowedOperations: zone.operations) { offered in
            // The zone's order decides: the first wanted type the source offers (any, without a list).
            wanted.isEmpty ? offered.first : wanted.first(where: offered.contains)
        }
        try connection.sync()
        onEvent(.shown(window.window))
    }

    /// How long the window outlives the last XdndFinished it sent: a source looks the target
    /// window up when the Finished arrives (GDK makes a foreign window of it), and one destroyed
    /// before that makes GTK drop the Finished, so its drag never ends.
    static let finishedGrace: Duration = .seconds(1)

    mutating func run() throws {
        defer { window.close() }
        var lastFinished: ContinuousClock.Instant?
        while true {
            let asked = control.take()
            if case let .some(performed) = asked.finished {
                try carry(target.fetchEnded(performed: performed))
                lastFinished = .now
                onEvent(.finished(performed: performed))
            }
            if asked.close {
                if target.drag?.phase == .fetching {
                    try carry(target.fetchEnded(performed: nil))
                    lastFinished = .now
                }
                if let lastFinished { try linger(until: lastFinished + Self.finishedGrace) }
                return
            }
            guard let event = try connection.waitForEvent(until: nil, wakeup: control.wakeup, where: { _ in true }) else { continue }
            if try window.handle(event) { continue }
            guard case let .clientMessage(message) = event, message.window == window.window,
                  let xdnd = try? XdndMessage(decoding: message, atoms: atoms) else { continue }
            try carry(target.received(xdnd))
        }
    }

    /// The drop of `drag`: its types' names and XdndSelection's owner now. Nil when the
    /// server refuses a look-up (a type that is no atom); the connection failing throws.
    private func describe(_ drag: XdndIncomingDrag, chosen type: Atom, operation: XdndOperation) throws(X11Error) -> X11DropZone.Drop? {
        do throws(X11Error) {
            let names = try connection.atomNames(drag.types + [type])
            let reply = try connection.roundTrip(.getSelectionOwner(atoms.selection))
            let owner = (try? X11Reply.getSelectionOwnerChecked(reply)) ?? .none
            return X11DropZone.Drop(
                source: drag.source, offered: Array(names.dropLast()), chosen: names.last ?? "", operation: operation,
                owner: owner == .none ? nil : owner)
        } catch .request {
            return nil
        }
    }

    /// Hides the window at once and keeps it (unmapped, taking no drags: it is not viewable)
    /// until `deadline`, so the source that was just answered can still find it.
    private func linger(until deadline: ContinuousClock.Instant) throws {
        guard deadline > .now else { return }
        try connection.send(.unmapWindow(window.window))
        while ContinuousClock.now < deadline {
            _ = try connection.waitForEvent(until: deadline, wakeup: nil, where: { _ in true })
        }
    }

    /// Carries out the target session's steps.
    private mutating func carry(_ steps: [XdndTargetStep]) throws {
        for step in steps {
            switch step {
            case let .send(envelope):
                // A source may be gone by now: its BadWindow is no failure of ours.
                try connection.send(
                    .sendEvent(envelope.message.clientMessage(window: envelope.window, atoms: atoms), to: envelope.destination),
                    ignoringErrors: true)
            case let .readTypeList(source):
                let types: [Atom]?
                do {
                    types = atoms.types(fromTypeList: try X11Reply.getProperty(try connection.roundTrip(atoms.readTypeList(of: source))))
                } catch let error as X11Error {
                    guard case .request = error else { throw error }
                    types = nil  // the source is gone: the Enter's types stand
                }
                try carry(target.typeListRead(types, from: source))
            case let .fetch(type, _, operation):
                guard let drag = target.drag else { continue }
                guard let drop = try describe(drag, chosen: type, operation: operation) else {
                    // A source's types that name no atom (BadAtom): the drop is refused, the zone goes on.
                    try carry(target.fetchEnded(performed: nil))
                    continue
                }
                onEvent(.dropped(drop))
            }
        }
    }
}

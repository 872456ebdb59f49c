import PasteboardSystem
import Synchronization

/// A drag handle on the X11 desktop: a small window showing a picture of what is dragged
/// (`X11PictureWindow`), from which the user starts a real XDND drag into any application.
/// Pressing button 1 on it grabs the pointer and the keyboard and runs an `XdndSourceSession`
/// until the release (or Esc); the handle stays until `close()` (its drag session ended), so a
/// release over a window that refused, or over none, leaves it there for another try.
///
/// The handle does not serve the data: the caller owns XdndSelection (an `X11SelectionServer`
/// for it) from the `.pressed` event on and serves the target's conversions from the drop's
/// data, telling the handle of each (`conversionRequested()`), since a target reading a large
/// drop slowly is alive and its Finished is worth waiting for.
///
/// Runs on a connection and thread of its own (`X11SessionThread`), as every X11 session.
public final class X11DragHandle: Sendable {
    /// What the handle shows: `width` × `height` pixels in `X11PictureWindow`'s order.
    public struct Picture: Sendable {
        /// The window's name (WM_NAME), what `xdotool search --name` finds.
        public let title: String
        public let width: Int
        public let height: Int
        public let pixels: [UInt8]

        public init(title: String, width: Int, height: Int, pixels: [UInt8]) {
            self.title = title
            self.width = width
            self.height = height
            self.pixels = pixels
        }
    }

    /// What happened at the handle.
    public enum Event: Sendable, Equatable {
        /// The window is up, at its place on the screen.
        case shown(WindowID)
        /// A drag began from the handle: the caller owns XdndSelection from now on.
        case pressed
        /// The target accepted with `operation` and the drop is being sent: conversions of
        /// XdndSelection follow.
        case dropping(XdndOperation)
        /// A drag from the handle ended. `byEscape` tells Esc from a release over no target,
        /// which both end `.cancelled`.
        case ended(XdndDragOutcome, byEscape: Bool)
    }

    let display: X11Display
    let picture: Picture
    let types: [String]
    let requestedOperation: XdndOperation
    let origin: (x: Int, y: Int)?
    let finishedTimeout: Duration
    private let control: DragHandleControl

    /// A handle showing `picture` at `origin` (root coordinates; nil: just below and right of
    /// the pointer), offering `types` (MIME types or X11 targets, best first) and asking for
    /// `requestedOperation`.
    public init(
        display: X11Display, picture: Picture, types: [String], requestedOperation: XdndOperation,
        origin: (x: Int, y: Int)? = nil, finishedTimeout: Duration = XdndSourceSession.defaultFinishedTimeout
    ) throws(X11Error) {
        guard !types.isEmpty else { throw .invalidArgument("a drag handle needs at least one type to offer") }
        self.display = display
        self.picture = picture
        self.types = types
        self.requestedOperation = requestedOperation
        self.origin = origin
        self.finishedTimeout = finishedTimeout
        control = try DragHandleControl()
    }

    /// Takes the handle away (leaving any drag in progress, as Esc would): its session ended.
    /// Callable from any thread; `run` then returns.
    public func close() { control.requestClose() }

    /// The target converted XdndSelection: the wait for its Finished starts again.
    public func conversionRequested() { control.noteConversion() }

    /// Shows the handle and runs its drags until `close()` or the task's cancellation (returns)
    /// or the X connection fails (throws).
    public func run(onEvent: @escaping @Sendable (Event) -> Void) async throws(X11Error) {
        let session = try X11SessionThread.start(on: display) { [self] (connection) throws(X11Error) in
            do {
                var loop = try DragHandleLoop(handle: self, connection: connection, control: control, onEvent: onEvent)
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

/// What the async side asks of a handle's X thread: to close, and that a conversion came.
final class DragHandleControl: Sendable {
    private struct State {
        var closeRequested = false
        var conversions = 0
    }

    private let state = Mutex(State())
    let wakeup: X11Wakeup

    init() throws(X11Error) { wakeup = try X11Wakeup() }

    func requestClose() {
        state.withLock { $0.closeRequested = true }
        wakeup.signal()
    }

    func noteConversion() {
        state.withLock { $0.conversions += 1 }
        wakeup.signal()
    }

    /// The X thread: whether to close, and whether conversions came since the last call.
    func take() -> (close: Bool, converted: Bool) {
        state.withLock { state in
            defer { state.conversions = 0 }
            return (state.closeRequested, state.conversions > 0)
        }
    }
}

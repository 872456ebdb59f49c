import Pasteboard
import PasteboardDesktopTypes
import PasteboardWayland
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One drag session shown on the Wayland desktop: its drag handle (a `WaylandWindow` in the
/// handle role), and the mapping of what happens there onto the session:
///
/// | at the handle                              | to the session                              |
/// |--------------------------------------------|---------------------------------------------|
/// | `dnd_drop_performed` (released, accepted)  | `drop` copy or move, as the compositor chose |
/// | `send` from the destination                | the drop's bytes into its pipe              |
/// | `dnd_finished`                             | `finish` (move only when the action was move and the destination read) |
/// | `cancelled` after the drop                 | `finish` unsuccessful                       |
/// | `cancelled` before it (no taker, refused)  | nothing: the session stays                  |
/// | Esc over the handle                        | `drop cancel`: the session ends             |
///
/// Wayland tells a source no more than "nobody takes it" for a destination that refuses and
/// for no destination at all, so no `forbidden` is proposed here (X11's handle can).
struct WaylandSessionHandle: Sendable {
    let session: DropSession
    let socketPath: String
    let timeout: Duration
    let mapping: DesktopTypeMapping

    /// The app id of drag handles, by which a compositor's rules may place them
    /// (`for_window [app_id="pasteboard-drag-handle"] floating enable` in sway).
    static let appID = "pasteboard-drag-handle"

    /// Shows the handle and runs the session's desktop drags until the session was finished or
    /// cancelled from the handle (returns), the task is cancelled (the session ended elsewhere),
    /// or the compositor fails (throws).
    func run(onEvent: @escaping @Sendable (WaylandDesktopDrags.Event) -> Void) async throws {
        let id = session.id
        let plan = DesktopDragPlan(itemTypes: session.items.map(\.types), mapping: mapping)
        // X11's bare text names (UTF8_STRING, STRING, TEXT) are no MIME types: Wayland's are.
        let types = plan.names.filter { $0.contains("/") }
        guard !types.isEmpty else {
            return onEvent(.skipped(session: id, reason: "its items have no type the desktop takes"))
        }
        let allowsMove = session.allowedOperations.contains(.move)
        let canvas = DragHandleDrawing(
            items: session.items.map { DragHandleDrawing.Item(title: X11SessionHandle.title(of: $0)) },
            caption: DragHandleDrawing.caption(count: session.items.count, allowsMove: allowsMove)).draw()
        let window = try await WaylandWindow.open(
            socketPath: socketPath, role: .dragHandle(types: types, actions: allowsMove ? [.copy, .move] : [.copy]),
            picture: SurfaceSession.Picture(title: "Pasteboard: drag session \(id)", appID: Self.appID, width: canvas.width, height: canvas.height),
            pixels: canvas.littleEndianBytes, timeout: timeout)
        let drop = DesktopDropState(session: session)
        let watch = DropWatch()
        do {
            try await serve(window, plan: plan, drop: drop, watch: watch, onEvent: onEvent)
        } catch {
            window.close()
            await window.discardUnreadSends()
            throw error
        }
        window.close()
        await window.discardUnreadSends()
        // The window went (the destination never finished within the bound, or the
        // compositor dropped us) with the drop unanswered: it failed.
        if drop.isDropping, !watch.isAnswered, !Task.isCancelled {
            try await drop.performed().finish(success: false, message: "the desktop destination did not finish the drop within \(Self.finishTimeout)")
        }
    }

    /// The longest a dropped drag waits for the destination's `dnd_finished` with nothing
    /// asked of it: XDND's bound for XdndFinished, restarted by each `send`.
    static let finishTimeout: Duration = .seconds(30)
    /// The most sends served at once: each holds a pipe, a thread while it waits, and a load
    /// from the daemon. More are answered by closing their pipe (X11's owner has the same cap).
    static let mostSends = 16

    private func serve(
        _ window: WaylandWindow, plan: DesktopDragPlan, drop: DesktopDropState, watch: DropWatch,
        onEvent: @escaping @Sendable (WaylandDesktopDrags.Event) -> Void
    ) async throws {
        let id = session.id
        try await withThrowingTaskGroup(of: Void.self) { group in
            defer { group.cancelAll() }
            for await event in window.events {
                onEvent(.handle(session: id, event))
                switch event {
                case let .dropPerformed(operation):
                    drop.dropping(operation == .move ? .move : .copy)
                    watch.touch()
                    group.addTask {
                        // The destination's silence after the drop is bounded: the window closes.
                        while !Task.isCancelled {
                            try await Task.sleep(for: .seconds(1))
                            if watch.idle(longerThan: Self.finishTimeout) { return window.close() }
                        }
                    }
                case let .send(mimeType, descriptor):
                    watch.touch()
                    guard watch.startSend(limit: Self.mostSends) else {
                        close(descriptor)
                        onEvent(.failed(session: id, reason: "\(Self.mostSends) transfers are in flight, the most at once; \(mimeType) was refused"))
                        continue
                    }
                    group.addTask {
                        defer { watch.endSend() }
                        do {
                            try await WaylandWindow.serve(mimeType: mimeType, descriptor: descriptor) { transfer in
                                try await DesktopDragData.stream(
                                    mimeType, plan: plan, drop: drop,
                                    chunk: { chunk in
                                        watch.touch()
                                        try await transfer.write(chunk.withUnsafeBytes { Array($0) })
                                    },
                                    bytes: { try await transfer.write($0) })
                            }
                        } catch WaylandError.readerClosed {
                        } catch is CancellationError {
                        } catch {
                            onEvent(.failed(session: id, reason: "serving \(mimeType) to the desktop: \(error)"))
                        }
                    }
                case let .dragEnded(outcome, byEscape):
                    if try await Self.answer(outcome, byEscape: byEscape, for: session, drop: drop) {
                        watch.answered()
                        return
                    }
                case .escape:
                    _ = try await session.perform(.cancel)
                    return
                case .closeRequested where drop.isDropping:
                    // The destination is reading what was dropped: the drop is not called off.
                    break
                case .closeRequested:
                    // The user closed the handle: the drag is called off, as with Esc.
                    _ = try await session.perform(.cancel)
                    return
                case .shown, .dragStarted, .dropped:
                    break
                }
            }
            if let failure = window.failure { throw failure }
        }
    }

    /// Tells the session what a drag's end means for it; true when that ended the session.
    private static func answer(_ outcome: WaylandDragOutcome, byEscape: Bool, for session: DropSession, drop: DesktopDropState) async throws -> Bool {
        switch outcome {
        case let .finished(operation):
            guard drop.isDropping else { return false }
            let performed = try await drop.performed()
            // A destination that finished with a copy, or never read the drop, keeps nothing of
            // ours: the source keeps its originals.
            let narrowed: DragOperation? = (operation == .copy || !drop.wasServed) && performed.operation == .move ? .copy : nil
            try await performed.finish(performed: narrowed)
            return true
        case .failed where drop.isDropping:
            try await drop.performed().finish(success: false, message: "the desktop destination never finished the drop")
            return true
        case .failed:
            return false
        case .cancelled where byEscape:
            _ = try await session.perform(.cancel)
            return true
        case .cancelled:
            return false
        }
    }
}

/// What a handle's loop and its tasks share about a drop: when the destination last did
/// something, the sends in flight, and whether the drop was answered.
private final class DropWatch: Sendable {
    private struct State {
        var last = ContinuousClock.now
        var sends = 0
        var answered = false
    }

    private let state = Mutex(State())

    func touch() { state.withLock { $0.last = .now } }

    func idle(longerThan bound: Duration) -> Bool {
        state.withLock { $0.sends == 0 && ContinuousClock.now - $0.last > bound }
    }

    func startSend(limit: Int) -> Bool {
        state.withLock { state in
            guard state.sends < limit else { return false }
            state.sends += 1
            return true
        }
    }

    func endSend() {
        state.withLock { state in
            state.sends -= 1
            state.last = .now
        }
    }

    func answered() { state.withLock { $0.answered = true } }
    var isAnswered: Bool { state.withLock { $0.answered } }
}

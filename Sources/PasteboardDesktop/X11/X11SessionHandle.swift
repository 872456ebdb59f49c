import Pasteboard
import PasteboardDesktopTypes
import PasteboardX11

/// One drag session shown on the X11 desktop: its drag handle (`X11DragHandle`), the owner of
/// XdndSelection that serves a target's conversions from the session's drop, and the mapping of
/// what happens at the handle onto the session (UIDropProposal's answers, given for the desktop
/// target):
///
/// | at the handle                          | to the session                              |
/// |----------------------------------------|---------------------------------------------|
/// | XdndDrop sent (the target accepted)    | `drop` copy or move, as the target accepted |
/// | XdndFinished                           | `finish` (a move answered with a copy: copy) |
/// | the drop failed or Finished never came | `finish` unsuccessful                       |
/// | released over a target that refused    | `drop forbidden`: the session stays         |
/// | released over no target                | nothing: the session stays                  |
/// | Esc                                    | `drop cancel`: the session ends             |
struct X11SessionHandle: Sendable {
    let session: DropSession
    let display: X11Display
    let mapping: DesktopTypeMapping
    let ownWindows: DesktopOwnWindows

    /// Shows the handle and runs the session's desktop drags until the session was finished or
    /// cancelled from the handle (returns), the task is cancelled (the session ended elsewhere:
    /// returns), or the display fails (throws).
    func run(onEvent: @escaping @Sendable (X11DesktopDrags.Event) -> Void) async throws {
        let id = session.id
        let plan = DesktopDragPlan(itemTypes: session.items.map(\.types), mapping: mapping)
        guard !plan.targets.isEmpty else {
            return onEvent(.skipped(session: id, reason: "its items have no type the desktop takes"))
        }
        let allowsMove = session.allowedOperations.contains(.move)
        let handle = try X11DragHandle(
            display: display, picture: Self.picture(of: session, allowsMove: allowsMove),
            types: plan.names, requestedOperation: allowsMove ? .move : .copy, origin: session.handleOrigin)
        let server = try X11SelectionServer(display: display, selection: "XdndSelection", windows: ownWindows)
        let drop = DesktopDropState(session: session)
        let offer = X11SelectionServer.Offer(tag: id, targets: plan.names) { request, writer in
            handle.conversionRequested()
            try await Self.provide(request, into: writer, plan: plan, drop: drop)
        }
        let (events, sink) = AsyncStream.makeStream(of: X11DragHandle.Event.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            group.addTask {
                defer { sink.finish() }
                try await handle.run { event in
                    switch event {
                    case .pressed:
                        // On the X thread, before the first XdndEnter: the drag's data must be ours to serve.
                        server.post(.own(offer, onlyIfUnowned: false))
                    case let .dropping(operation):
                        // Before XdndDrop goes out, so the target's first conversion finds the drop begun.
                        drop.dropping(operation == .move ? .move : .copy)
                    case .shown, .ended:
                        break
                    }
                    sink.yield(event)
                }
            }
            group.addTask {
                for await event in events {
                    onEvent(.handle(session: id, event))
                    if try await Self.answer(event, for: session, drop: drop) { break }
                }
                handle.close()
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Tells the session what `event` means for it; true when that ended the session.
    private static func answer(_ event: X11DragHandle.Event, for session: DropSession, drop: DesktopDropState) async throws -> Bool {
        guard case let .ended(outcome, byEscape) = event else { return false }
        switch outcome {
        case let .finished(operation):
            let performed = try await drop.performed()
            // A target that accepted a move but reports a copy kept nothing of ours, and a
            // Finished from a "target" that never read the data (any client can send one, naming
            // the target's window) is no move either: the source keeps its originals.
            let narrowed: DragOperation? = (operation == .copy || !drop.wasServed) && performed.operation == .move ? .copy : nil
            try await performed.finish(performed: narrowed)
            return true
        case let .failed(reason) where drop.isDropping:
            try await drop.performed().finish(success: false, message: "the desktop target: \(reason)")
            return true
        case .failed:
            // Released while the target had not answered: nothing was dropped; the handle stays.
            return false
        case .forbidden:
            _ = try await session.perform(.forbidden)
            return false
        case .cancelled where byEscape:
            _ = try await session.perform(.cancel)
            return true
        case .cancelled:
            return false
        }
    }

    /// Streams `request.target` into `writer` from the drop (`DesktopDragData`).
    private static func provide(
        _ request: SelectionOwner.ContentRequest, into writer: SelectionChunkWriter, plan: DesktopDragPlan, drop: DesktopDropState
    ) async throws {
        try await DesktopDragData.stream(
            request.target, plan: plan, drop: drop,
            chunk: { try await writer.write(ReceivedBytes(chunk: $0)) }, bytes: { try await writer.write($0) })
    }

    /// The handle's picture: each item's title and the count, with what the drag allows.
    static func picture(of session: DropSession, allowsMove: Bool) -> X11DragHandle.Picture {
        let items = session.items.map { DragHandleDrawing.Item(title: title(of: $0)) }
        let canvas = DragHandleDrawing(items: items, caption: DragHandleDrawing.caption(count: items.count, allowsMove: allowsMove)).draw()
        return X11DragHandle.Picture(
            title: "Pasteboard: drag session \(session.id)", width: canvas.width, height: canvas.height, pixels: canvas.littleEndianBytes)
    }

    /// What an item is called on the handle: its suggested name, else its best type.
    static func title(of item: PasteboardItem) -> String {
        item.suggestedName ?? item.types.first?.rawValue ?? "item \(item.index + 1)"
    }
}

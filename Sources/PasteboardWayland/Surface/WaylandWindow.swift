import CPasteboardSystem
import PasteboardSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A window of ours on the Wayland desktop, a drag handle or a drop zone, on a connection of
/// its own: what `SurfaceSession` decides, spoken on the compositor's socket.
///
/// One thread receives (`BlockingWork`, for the window's life); any thread may ask something of
/// it (``receive(_:timeout:chunk:)``, ``finishDrop(performed:)``, ``close()``), which is done and
/// sent under one lock, so requests never interleave. What happens at the window arrives on
/// ``events``, which finishes when the window is closed or its connection ends.
public final class WaylandWindow: Sendable {
    /// What happened at the window.
    public typealias Event = SurfaceSession.Event

    private struct State: Sendable {
        var session: SurfaceSession
        var reader = MessageReader()
        var failure: WaylandError?
        var closed = false
    }

    private let socket: WaylandSocket
    private let state: Mutex<State>
    private let memory: Int32
    private let sink: AsyncStream<Event>.Continuation
    /// The window's events, in order; finishes when the window closes or its connection fails.
    public let events: AsyncStream<Event>

    /// Opens a window for `role` showing `picture` with `pixels` (`picture.byteCount` bytes of
    /// ARGB8888) on the compositor at `socketPath`, and waits, up to `timeout`, until it is
    /// shown. Throws ``WaylandError/missingGlobal(interface:version:)`` for a compositor that
    /// lacks what a window needs, or the connection's failure.
    public static func open(
        socketPath: String, role: SurfaceSession.Role, picture: SurfaceSession.Picture, pixels: [UInt8], timeout: Duration = .seconds(5)
    ) async throws(WaylandError) -> WaylandWindow {
        try await BlockingWork.run { () throws(WaylandError) in
            try WaylandWindow(socketPath: socketPath, role: role, picture: picture, pixels: pixels, timeout: timeout)
        }
    }

    private init(socketPath: String, role: SurfaceSession.Role, picture: SurfaceSession.Picture, pixels: [UInt8], timeout: Duration) throws(WaylandError) {
        guard picture.width > 0, picture.height > 0, picture.width <= 4096, picture.height <= 4096, pixels.count == picture.byteCount else {
            throw .sharedMemoryFailed(errno: EINVAL)
        }
        let memory = pasteboard_memory_file("pasteboard-window", Int64(pixels.count))
        guard memory >= 0 else { throw .sharedMemoryFailed(errno: errno) }
        var offset = 0
        while offset < pixels.count {
            let written = pixels.withUnsafeBytes { pwrite(memory, $0.baseAddress! + offset, $0.count - offset, off_t(offset)) }
            guard written > 0 else {
                let error = errno
                Glibc.close(memory)
                throw .sharedMemoryFailed(errno: error)
            }
            offset += written
        }
        self.memory = memory
        let socket: WaylandSocket
        let session: SurfaceSession
        do throws(WaylandError) {
            socket = try WaylandSocket(path: socketPath)
            session = try SurfaceSession(role: role, picture: picture, memory: memory)
        } catch {
            Glibc.close(memory)
            throw error
        }
        self.socket = socket
        state = Mutex(State(session: session))
        (events, sink) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        do throws(WaylandError) {
            try perform { _ in }
            let deadline = ContinuousClock.now + timeout
            while state.withLock({ $0.session.phase }) != .shown {
                let left = deadline - .now
                guard left > .zero else { throw .timedOut(waitingFor: "the compositor to show the window") }
                try pump(timeoutMilliseconds: left.milliseconds)
            }
        } catch {
            socket.shutDown()
            sink.finish()
            throw error
        }
        let started = BlockingWork.start { [self] in
            while (try? pump(timeoutMilliseconds: -1)) != nil {}
        }
        guard started else {
            socket.shutDown()
            sink.finish()
            throw .timedOut(waitingFor: "a thread to receive the window's events")
        }
    }

    deinit {
        socket.shutDown()
        Glibc.close(memory)
        sink.finish()
    }

    /// Runs `body` on the session, sends what it queued and hands out its events; fails once
    /// the connection has.
    private func perform<Result: Sendable>(_ body: (inout SurfaceSession) throws(WaylandError) -> Result) throws(WaylandError) -> Result {
        try state.withLock { (state: inout State) throws(WaylandError) -> Result in
            if let failure = state.failure { throw failure }
            if state.closed { throw WaylandError.connectionClosed }
            let result = try body(&state.session)
            try Self.flush(&state, socket)
            hand(&state)
            return result
        }
    }

    /// Waits up to `timeoutMilliseconds` (-1: no limit) for events and handles them. A failure
    /// is recorded, ends ``events`` and is thrown.
    private func pump(timeoutMilliseconds: Int32) throws(WaylandError) {
        do throws(WaylandError) {
            guard let (bytes, descriptors) = try socket.receive(timeoutMilliseconds: timeoutMilliseconds) else { return }
            guard !bytes.isEmpty || !descriptors.isEmpty else { throw WaylandError.connectionClosed }
            try state.withLock { (state: inout State) throws(WaylandError) in
                state.reader.append(bytes, descriptors: descriptors)
                if state.closed { throw WaylandError.connectionClosed }
                while let frame = try Self.wire({ () throws(WireError) in try state.reader.nextFrame() }) {
                    let signature = try state.session.signature(for: frame.header)
                    let message = try Self.wire { () throws(WireError) in try state.reader.decode(frame.bytes, signature: signature) }
                    if Self.tracing { Self.trace("<-", message, state.session) }
                    try state.session.handle(message)
                }
                _ = try Self.wire { () throws(WireError) in try state.reader.dropUnclaimedDescriptors() }
                try Self.flush(&state, socket)
                hand(&state)
            }
        } catch {
            state.withLock { state in
                if state.failure == nil, !state.closed { state.failure = error }
                state.reader.closeDescriptors()
                hand(&state)
            }
            sink.finish()
            throw error
        }
    }

    /// Hands the session's events to ``events`` in order, under the lock (so two threads never
    /// reorder them). A send nobody will read any more (the stream ended) has its pipe closed,
    /// so the destination sees end of file instead of waiting.
    private func hand(_ state: inout State) {
        for event in state.session.events {
            if case .terminated = sink.yield(event), case let .send(_, descriptor) = event { Glibc.close(descriptor) }
        }
        state.session.events = []
    }

    private static func flush(_ state: inout State, _ socket: WaylandSocket) throws(WaylandError) {
        while !state.session.outgoing.isEmpty {
            let message = state.session.outgoing.removeFirst()
            if tracing { trace("->", message, state.session) }
            let bytes = try wire { () throws(WireError) in try WireEncoder.encode(message) }
            try socket.send(bytes, descriptors: message.descriptors)
        }
    }

    /// Whether every message is written to standard error (`PASTEBOARD_WAYLAND_DEBUG=1`, as
    /// libwayland's `WAYLAND_DEBUG`): for a compositor that does what nobody expects.
    private static let tracing = ProcessEnvironment.current()["PASTEBOARD_WAYLAND_DEBUG"] == "1"

    private static func trace(_ direction: String, _ message: WireMessage, _ session: SurfaceSession) {
        let line = "[wayland window] \(direction) \(session.objectName(message.objectID))@\(message.objectID).\(message.opcode)\(message.arguments)\n"
        let bytes = Array(line.utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    private static func wire<Result>(_ body: () throws(WireError) -> Result) throws(WaylandError) -> Result {
        do {
            return try body()
        } catch {
            throw .malformed(error)
        }
    }

    /// Whether a drop into the zone is held (dropped, not yet answered).
    public var isHoldingDrop: Bool { state.withLock { $0.session.heldDrop != nil } }

    /// What ended the window's connection, if it ended other than by ``close()``.
    public var failure: WaylandError? { state.withLock { $0.failure } }

    /// Takes the window down (a drag in flight let go of, a held drop failed) and ends its
    /// connection; ``events`` finishes. Idempotent.
    public func close() {
        _ = try? perform { $0.close() }
        state.withLock { $0.closed = true }
        socket.shutDown()
        sink.finish()
    }

    /// Closes the pipes of sends handed out but never taken from ``events`` (call once the
    /// window is closed and nobody reads its events any more), so no destination waits on them.
    public func discardUnreadSends() async {
        for await event in events {
            if case let .send(_, descriptor) = event { Glibc.close(descriptor) }
        }
    }

    /// Esc pressed by other means than the window's keyboard (a test, a command): as
    /// `SurfaceSession.escape()`.
    public func escape() {
        _ = try? perform { $0.escape() }
    }

    // MARK: - A drag from the handle

    /// Serves one `send` of the handle's drag: `provider` writes the bytes of `mimeType` into
    /// the destination's pipe `descriptor` (taken over: closed when the provider returns or
    /// throws). `stallTimeout` bounds each wait for a destination that takes nothing.
    public static func serve(
        mimeType: String, descriptor: Int32, stallTimeout: Duration = .seconds(30), provider: SelectionSource.Provider
    ) async throws {
        let transfer = try SourceTransfer(descriptor: descriptor, mimeType: mimeType, kind: nil, stallTimeout: stallTimeout)
        defer { transfer.finish() }
        try await provider(transfer)
    }

    // MARK: - A drop into the zone

    /// Streams `mimeType` of the held drop from its source into `chunk` until the source closes
    /// the pipe; returns the byte count. `timeout` is the longest the source may stay silent.
    /// Cancelling the task stops the wait at once.
    @discardableResult
    public func receive(_ mimeType: String, timeout: Duration = .seconds(5), chunk: ([UInt8]) async throws -> Void) async throws -> Int {
        try Task.checkCancellation()
        let pipe = try TransferPipe()
        try perform { session throws(WaylandError) in try session.receive(mimeType, into: pipe.writeEnd) }
        pipe.closeWriteEnd()
        return try await pipe.drain(mimeType, timeout: timeout, chunk: chunk)
    }

    /// Asks the held drop's source for `mimeType` now and lets a task of its own drain what it
    /// writes (at most `timeout` of silence): for a request whose answer does not matter but
    /// must reach the source before what is sent next, such as GTK's `DELETE` before `finish`
    /// (the compositor forwards both in order). The pipe stays open until drained, so a source
    /// writing into it never meets a closed pipe.
    public func requestDiscarding(_ mimeType: String, timeout: Duration = .seconds(5)) throws {
        let pipe = try TransferPipe()
        try perform { session throws(WaylandError) in try session.receive(mimeType, into: pipe.writeEnd) }
        pipe.closeWriteEnd()
        Task.detached {
            // At most 1 KiB and `timeout` in all: an answer that never ends is let go of.
            let deadline = ContinuousClock.now + timeout
            var taken = 0
            while taken < 1 << 10, case let left = deadline - .now, left > .zero {
                guard let event = try? await pipe.nextOffThread(timeoutMilliseconds: left.milliseconds), case let .data(bytes) = event else { return }
                taken += bytes.count
            }
        }
    }

    /// Answers the held drop: finished with `performed`, or failed (nil).
    public func finishDrop(performed: DragOperationKind?) {
        _ = try? perform { $0.finishDrop(performed: performed) }
    }
}

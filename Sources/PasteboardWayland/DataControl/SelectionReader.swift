import PasteboardSystem
import Synchronization

/// Reads the desktop's selections through data control: the current offers of the clipboard and
/// the primary selection, their changes as they happen, and the bytes of one MIME type on demand.
///
/// This is the Wayland half of "from the desktop into Pasteboard": data stays with its owner
/// until ``read(_:from:timeout:chunk:)`` asks for it, so a large copy costs nothing until pasted.
/// It uses the compositor's first seat (data-control devices are per seat; a desktop session
/// has one).
public final class SelectionReader: Sendable {
    let core: ConnectionCore

    /// The socket path it is connected to.
    public let socketPath: String

    /// Connects to the compositor that `environment` names (`WAYLAND_DISPLAY`, `XDG_RUNTIME_DIR`)
    /// and waits, up to `timeout`, until the current selections are known.
    ///
    /// Throws ``WaylandError/noDataControl`` for a compositor without a data-control protocol,
    /// so the caller can report it once and fall back to X11.
    public convenience init(environment: [String: String], timeout: Duration = .seconds(5)) throws(WaylandError) {
        try self.init(socketPath: try CompositorSocket.resolve(environment: environment), timeout: timeout)
    }

    /// Connects to the compositor's socket at `socketPath`; see ``init(environment:timeout:)``.
    public init(socketPath: String, timeout: Duration = .seconds(5)) throws(WaylandError) {
        self.socketPath = socketPath
        core = try ConnectionCore(socket: try WaylandSocket(path: socketPath))
        do throws(WaylandError) {
            try core.withSession { _ in }  // sends get_registry and the first sync
            let deadline = ContinuousClock.now + timeout
            while try core.withSession({ $0.phase }) != .ready {
                let left = deadline - .now
                guard left > .zero else { throw .timedOut(waitingFor: "the globals and the initial selections") }
                try core.pump(timeoutMilliseconds: left.milliseconds)
            }
        } catch {
            core.close()
            throw error
        }
        let core = self.core
        // The event loop holds a thread of its own for the connection's life (`BlockingWork`).
        BlockingWork.start { core.runEventLoop() }
    }

    /// ``init(socketPath:timeout:)`` on a thread of its own (`BlockingWork`): connecting and
    /// waiting for the first selections blocks, which must not hold the caller's executor.
    public static func connect(socketPath: String, timeout: Duration = .seconds(5)) async throws(WaylandError) -> SelectionReader {
        try await BlockingWork.run { () throws(WaylandError) in try SelectionReader(socketPath: socketPath, timeout: timeout) }
    }

    deinit {
        core.close()
    }

    /// The data-control protocol in use (ext where offered, else wlr).
    public var dataControlProtocol: DataControlProtocol {
        core.state.withLock { $0.session.dataControl ?? .wlr }
    }

    /// The seat's name, as the compositor calls it (`seat0` on sway).
    public var seatName: String? {
        core.state.withLock { $0.session.seatName }
    }

    /// Whether the compositor reports the primary selection (ext, or wlr version 2).
    public var hasPrimarySelection: Bool {
        core.state.withLock { $0.session.hasPrimarySelection }
    }

    /// The current offer of `kind`, nil when that selection is empty.
    public func offer(_ kind: SelectionKind = .clipboard) -> SelectionOffer? {
        core.state.withLock { $0.session.selections[kind] }
    }

    /// Clears the selection of `kind`, whoever owns it (`set_selection` with no source): what a
    /// bridge does when its pasteboard is emptied while another client owns the selection.
    public func clearSelection(_ kind: SelectionKind) throws(WaylandError) {
        try core.withSession { session throws(WaylandError) in try session.clearSelection(kind) }
    }

    /// What ended the connection, if it ended (compositor gone, protocol error, device finished).
    public var failure: WaylandError? {
        core.state.withLock { state in
            state.failure ?? (state.session.phase == .finished ? .deviceFinished : nil)
        }
    }

    /// The selection changes from now on, each a new offer with its MIME types (or nil when a
    /// selection is cleared). Each call gives its own stream; it finishes when the connection
    /// ends or the reader is closed.
    public func changes() -> AsyncStream<SelectionChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: SelectionChange.self, bufferingPolicy: .bufferingNewest(64))
        let id = core.state.withLock { state in state.failure == nil && !state.closed ? state.observers.add(continuation) : nil }
        ObserverList.track(continuation, id: id) { [core] id in core.state.withLock { $0.observers.remove(id) } }
        return stream
    }

    /// Closes the connection (also on deinit); streams from ``changes()`` finish.
    public func close() {
        core.close()
        let observers = core.state.withLock { $0.observers.removeAll() }
        // Outside the lock: finish() runs the stream's onTermination, which takes it.
        for observer in observers { observer.finish() }
    }

    /// Waits until the compositor has handled everything sent so far, up to `timeout`.
    func roundtrip(timeout: Duration) async throws {
        let callback = try core.withSession { session throws(WaylandError) in try session.sync() }
        // The event loop resumes the wait when the `done` comes (no polling); a compositor that
        // never sends it is given up at `timeout`, which cancels the wait.
        let core = core
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await core.waitForSync(callback)
                return true
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return false
            }
            defer { group.cancelAll() }
            guard try await group.next() == true else { throw WaylandError.timedOut(waitingFor: "a roundtrip") }
        }
    }

    /// Checks that the compositor still answers: a `wl_display.sync` whose `done` must come
    /// within `timeout`. A compositor can stop sending a client events without closing its
    /// connection (sway 1.7 after dropping a client that offered 10,000 types); nothing else
    /// shows it. Throws `WaylandError.timedOut`, or the connection's failure.
    public func confirmAnswering(within timeout: Duration) async throws {
        do {
            try await roundtrip(timeout: timeout)
        } catch WaylandError.timedOut {
            throw WaylandError.timedOut(waitingFor: "the compositor to answer a sync (it stopped answering)")
        }
    }

    /// Queues a `receive` for `mimeType` of `offer` into `descriptor` and sends it.
    func requestTransfer(_ mimeType: String, from offer: SelectionOffer, into descriptor: Int32) throws(WaylandError) {
        try core.withSession { session throws(WaylandError) in try session.receive(mimeType, from: offer, into: descriptor) }
    }
}

extension Duration {
    /// Whole milliseconds, rounded up and clamped to what poll(2) takes.
    var milliseconds: Int32 {
        let (seconds, attoseconds) = components
        // A timeout of any size (Duration.seconds(Int64.max)) waits the longest poll can: the
        // product is formed only below the bound, where it cannot overflow.
        guard seconds < Int64(Int32.max) / 1000 else { return Int32.max }
        let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(total, 0))
    }
}

import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A live connection: the socket, the message reader, and the data-control session behind one
/// lock. One thread receives (set-up, then the event loop); any thread may send a request,
/// which is encoded and written under the lock so requests never interleave.
final class ConnectionCore: Sendable {
    /// Receives a source's events; called on the event thread outside the lock, so it may call
    /// back into the connection, and must return quickly (a send starts its own task).
    typealias SourceSink = @Sendable (SourceEvent) -> Void

    struct State: Sendable {
        var session: DataControlSession
        var reader = MessageReader()
        var observers = ObserverList<SelectionChange>()
        /// Who handles each of our data sources' events (a ``SelectionSource``), by object id.
        var sourceSinks: [UInt32: SourceSink] = [:]
        /// What ended the connection; every later call fails with it.
        var failure: WaylandError?
        var closed = false
        /// Who waits for which `wl_display.sync` to be answered (`waitForSync`), by a number of the wait's own.
        var syncWaiters: [(token: UInt64, wait: Int, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextSyncWait = 0
    }

    let socket: WaylandSocket
    let state: Mutex<State>

    init(socket: WaylandSocket) throws(WaylandError) {
        self.socket = socket
        state = Mutex(State(session: try DataControlSession()))
    }

    /// Runs `body` on the session and sends the requests it queued; fails once the connection has.
    func withSession<Result: Sendable>(_ body: (inout DataControlSession) throws(WaylandError) -> Result) throws(WaylandError) -> Result {
        try state.withLock { (state: inout State) throws(WaylandError) -> Result in
            if let failure = state.failure { throw failure }
            if state.closed { throw WaylandError.connectionClosed }
            let result = try body(&state.session)
            try Self.flush(&state, socket)
            return result
        }
    }

    /// Waits up to `timeoutMilliseconds` (-1: no limit) for events and handles them; false when
    /// nothing arrived in time. A failure is recorded, ends the observers, and is thrown.
    @discardableResult
    func pump(timeoutMilliseconds: Int32) throws(WaylandError) -> Bool {
        do throws(WaylandError) {
            guard let (bytes, descriptors) = try socket.receive(timeoutMilliseconds: timeoutMilliseconds) else { return false }
            guard !bytes.isEmpty || !descriptors.isEmpty else { throw WaylandError.connectionClosed }
            let (changes, observers, deliveries, synced) = try state.withLock { (state: inout State) throws(WaylandError) in
                state.reader.append(bytes, descriptors: descriptors)
                let changes = try Self.handleFrames(&state)
                _ = try Self.wire { () throws(WireError) in try state.reader.dropUnclaimedDescriptors() }
                try Self.flush(&state, socket)
                let events = state.session.sourceEvents
                state.session.sourceEvents = []
                let deliveries: [(SourceEvent, SourceSink?)] = events.map { event in
                    switch event {
                    case .send(let source, _, _), .sendRefused(let source, _):
                        return (event, state.sourceSinks[source])
                    case .cancelled(let source):
                        return (event, state.sourceSinks.removeValue(forKey: source))
                    }
                }
                return (changes, state.observers.members, deliveries, Self.answeredSyncs(&state))
            }
            // Yielded outside the lock, in order: a yield resumes the observing task (taking its
            // status lock), while cancelling that task holds its status lock and takes ours
            // through the stream's onTermination — the inversion that deadlocked a source's events.
            for change in changes {
                for observer in observers { observer.yield(change) }
            }
            Self.deliver(deliveries)
            for waiter in synced { waiter.resume() }
            return true
        } catch {
            fail(error)
            throw error
        }
    }

    /// Ends the connection with `error` (kept for later calls) unless it was closed on purpose.
    /// Our sources die with the connection (the compositor drops a client's sources when it
    /// goes), so each is told `cancelled`.
    func fail(_ error: WaylandError) {
        let (observers, sinks, waiters) = state.withLock { state in
            if state.failure == nil, !state.closed { state.failure = error }
            state.reader.closeDescriptors()
            defer {
                state.sourceSinks = [:]
                state.syncWaiters = []
            }
            return (state.observers.removeAll(), state.sourceSinks, state.syncWaiters.map(\.continuation))
        }
        // Outside the lock: finish() runs the stream's onTermination, which takes it.
        for observer in observers { observer.finish() }
        for waiter in waiters { waiter.resume(throwing: error) }
        Self.deliver(sinks.map { (.cancelled(source: $0.key), $0.value) })
    }

    /// Creates a data source for `kind` offering `mimeTypes`, sets it as the selection, and
    /// registers `sink` for its events under the same lock, so no event can arrive unhandled.
    func createSource(offering mimeTypes: [String], for kind: SelectionKind, sink: @escaping SourceSink) throws(WaylandError) -> UInt32 {
        try withSessionAndState { (state: inout State) throws(WaylandError) -> UInt32 in
            let source = try state.session.createSource(offering: mimeTypes, for: kind)
            state.sourceSinks[source] = sink
            return source
        }
    }

    /// Destroys a source of ours and forgets its sink (no-op when already cancelled).
    func destroySource(_ source: UInt32) {
        _ = try? withSessionAndState { (state: inout State) throws(WaylandError) in
            state.sourceSinks[source] = nil
            state.session.destroySource(source)
        }
    }

    /// Like ``withSession(_:)`` with the whole state.
    private func withSessionAndState<Result: Sendable>(_ body: (inout State) throws(WaylandError) -> Result) throws(WaylandError) -> Result {
        try state.withLock { (state: inout State) throws(WaylandError) -> Result in
            if let failure = state.failure { throw failure }
            if state.closed { throw WaylandError.connectionClosed }
            let result = try body(&state)
            try Self.flush(&state, socket)
            return result
        }
    }

    /// Hands source events to their sinks (outside the lock); a send nobody takes any more (its
    /// source was just destroyed on our side) has its descriptor closed, never leaked.
    private static func deliver(_ deliveries: [(SourceEvent, SourceSink?)]) {
        for (event, sink) in deliveries {
            if let sink {
                sink(event)
            } else if case .send(_, _, let descriptor) = event {
                Glibc.close(descriptor)
            }
        }
    }

    /// Returns once the compositor answered the `wl_display.sync` of `token` (the event loop
    /// resumes it as it handles the `done`), throwing the connection's failure if it ends first,
    /// or `CancellationError` when the waiting task is cancelled (the caller's bound:
    /// `SelectionReader.roundtrip`).
    func waitForSync(_ token: UInt64) async throws {
        let wait = state.withLock { state in
            defer { state.nextSyncWait += 1 }
            return state.nextSyncWait
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let answer: Result<Void, any Error>? = state.withLock { state in
                    if let failure = state.failure { return .failure(failure) }
                    if state.session.isSynced(token) { return .success(()) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.syncWaiters.append((token, wait, continuation))
                    return nil
                }
                if let answer { continuation.resume(with: answer) }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.syncWaiters.firstIndex(where: { $0.wait == wait }) else { return nil }
                return state.syncWaiters.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// The waiters whose sync the compositor has answered, taken out of `state`.
    private static func answeredSyncs(_ state: inout State) -> [CheckedContinuation<Void, any Error>] {
        guard !state.syncWaiters.isEmpty else { return [] }
        let answered = state.syncWaiters.filter { state.session.isSynced($0.token) }.map(\.continuation)
        state.syncWaiters.removeAll { state.session.isSynced($0.token) }
        return answered
    }

    /// Closes the connection: the event loop ends and observers finish.
    func close() {
        let first = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        if first { socket.shutDown() }
    }

    /// Receives events until the connection ends (run on its own thread after set-up).
    func runEventLoop() {
        while true {
            do {
                try pump(timeoutMilliseconds: -1)
            } catch {
                return
            }
        }
    }

    private static func handleFrames(_ state: inout State) throws(WaylandError) -> [SelectionChange] {
        var changes: [SelectionChange] = []
        while let frame = try wire({ () throws(WireError) in try state.reader.nextFrame() }) {
            let signature = try state.session.signature(for: frame.header)
            let message = try wire { () throws(WireError) in try state.reader.decode(frame.bytes, signature: signature) }
            changes += try state.session.handle(message)
        }
        return changes
    }

    private static func flush(_ state: inout State, _ socket: WaylandSocket) throws(WaylandError) {
        while !state.session.outgoing.isEmpty {
            let message = state.session.outgoing.removeFirst()
            let bytes = try wire { () throws(WireError) in try WireEncoder.encode(message) }
            try socket.send(bytes, descriptors: message.descriptors)
        }
    }

    /// A wire-format failure as the connection's error.
    private static func wire<Result>(_ body: () throws(WireError) -> Result) throws(WaylandError) -> Result {
        do {
            return try body()
        } catch {
            throw .malformed(error)
        }
    }
}

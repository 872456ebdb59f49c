internal import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes

/// A source that keeps its items on a pasteboard for as long as it runs, serving their promised
/// representations, and that survives a daemon restart: when the connection is lost it
/// reconnects with backoff (starting the daemon if nothing listens and auto-start is allowed)
/// and puts its items on the pasteboard again, unless another copy has replaced them meanwhile.
///
/// After a restart the daemon restores the pasteboard with the same change count and the
/// promises marked unavailable; the source replaces them with live ones by a conditional write
/// (`ifChangeCount`), so a newer copy from someone else is never overwritten.
public struct LiveSource: Sendable {
    /// What happened, for the source to report.
    public enum Event: Sendable, Equatable {
        /// The items are on the pasteboard, with this change count (first copy, or again after a reconnect).
        case copied(changeCount: Int, reconnected: Bool)
        /// The connection to the daemon was lost, for this reason.
        case connectionLost(String)
        /// Connecting failed (the daemon is not back yet); the next attempt follows after `delay`.
        case retrying(after: Duration, reason: String)
    }

    /// How `run` ended.
    public enum Outcome: Sendable, Equatable {
        /// The items left the pasteboard (replaced or cleared).
        case released
        /// `until` returned: the daemon took what fits of the promised data (see `relinquish`).
        case stopped
        /// Another copy replaced the items while the daemon was away (or it restarted without them and someone copied).
        case replacedWhileAway
    }

    /// The delays between reconnection attempts: `initial`, doubling up to `maximum`.
    public struct Backoff: Sendable {
        /// The first delay.
        public var initial: Duration
        /// The longest delay.
        public var maximum: Duration

        /// 100 ms doubling up to 5 s.
        public static let standard = Backoff(initial: .milliseconds(100), maximum: .seconds(5))

        public init(initial: Duration, maximum: Duration) {
            self.initial = initial
            self.maximum = maximum
        }

        /// The delay before the next attempt after `failures` failed ones in a row (at least 1).
        public func delay(afterFailures failures: Int) -> Duration {
            var delay = initial
            for _ in 1..<max(failures, 1) where delay < maximum { delay = delay * 2 }
            return min(delay, maximum)
        }
    }

    /// The items, in order.
    public let items: [ItemProvider]
    /// The pasteboard's name.
    public let pasteboard: String
    /// When set, the daemon clears the pasteboard this long after the first copy, unless it
    /// changed. A copy again after a reconnect keeps that deadline (it asks for the time left,
    /// and copies nothing once it has passed), so a restart of the daemon never extends it.
    public var expiry: Duration?
    /// The daemon's socket.
    public var socketPath: String
    /// The client name sent in `hello`.
    public var clientName: String
    /// The application name sent in `hello`.
    public var app: String?
    /// Type declarations made at each connect.
    public var declaredTypes: [TypeDeclaration] = []
    /// Whether a connect may start the daemon when nothing listens (see `PasteboardConnection.withConnection`).
    public var autoStart = true
    /// The delays between reconnection attempts.
    public var backoff = Backoff.standard

    /// A source for `items` on `pasteboard`.
    public init(
        items: [ItemProvider], pasteboard: String = "general",
        socketPath: String = PasteboardConnection.defaultSocketPath,
        clientName: String, app: String? = nil
    ) {
        self.items = items
        self.pasteboard = pasteboard
        self.socketPath = socketPath
        self.clientName = clientName
        self.app = app
    }

    private enum Phase: Sendable {
        case ended(Outcome)
        case lost(String)
    }

    /// Copies the items and serves them until they leave the pasteboard or `until` returns,
    /// reconnecting whenever the daemon goes away. `whileConnected` runs with each connection
    /// once the items are on the pasteboard, and is cancelled when the connection is lost.
    /// Errors of the first copy (the daemon unreachable, data refused) are thrown; after that,
    /// only errors that retrying cannot cure (another uid, another protocol version) are.
    ///
    /// Callable from any isolation: `onEvent` runs on the caller's executor, so a `@MainActor`
    /// caller updates its state from it. `until` and `whileConnected` run beside the serving, as
    /// tasks of their own: a `@MainActor` caller's closures `await` its methods.
    nonisolated(nonsending) public func run(
        until stop: @escaping @Sendable () async -> Void,
        onEvent: (Event) -> Void = { _ in },
        whileConnected: @escaping @Sendable (Pasteboard, _ changeCount: Int) async -> Void = { _, _ in }
    ) async throws -> Outcome {
        // The serving runs as a task of its own; its events come back to this function's body,
        // on the caller's executor, every one of them (see `ProgressRelay`).
        try await ProgressRelay.run(reporting: onEvent, keepingEvery: true) { report in
            try await serve(until: stop, onEvent: report, whileConnected: whileConnected)
        }
    }

    /// `run`'s work, off the caller: copies, serves, reconnects; `onEvent` hears what happens.
    private func serve(
        until stop: @escaping @Sendable () async -> Void,
        onEvent: @escaping @Sendable (Event) -> Void,
        whileConnected: @escaping @Sendable (Pasteboard, _ changeCount: Int) async -> Void
    ) async throws -> Outcome {
        let stopRequested = Latch()
        let stopping = Task {
            await stop()
            stopRequested.open()
        }
        defer { stopping.cancel() }

        var changeCount: Int?
        // When the first copy expires (see `expiry`), on a clock that runs while the daemon is away.
        var deadline: ContinuousClock.Instant?
        var failures = 0
        while true {
            if stopRequested.isOpen { return .stopped }
            do {
                let phase = try await PasteboardConnection.withConnection(
                    socketPath: socketPath, clientName: clientName, app: app, declaring: declaredTypes, autoStart: autoStart
                ) { connection -> Phase in
                    let board = Pasteboard(name: pasteboard, connection: connection)
                    let copied: Int
                    let reconnected = changeCount != nil
                    if let previous = changeCount {
                        guard let again = try await copyAgain(on: board, previous: previous, deadline: deadline) else {
                            return .ended(.replacedWhileAway)
                        }
                        copied = again
                    } else {
                        deadline = expiry.map { ContinuousClock.now + $0 }
                        copied = try await board.setItems(items, expiringAfter: expiry)
                    }
                    changeCount = copied
                    failures = 0
                    onEvent(.copied(changeCount: copied, reconnected: reconnected))
                    return await serve(on: connection, board: board, changeCount: copied, stop: stopRequested, whileConnected: whileConnected)
                }
                switch phase {
                case .ended(let outcome):
                    return outcome
                case .lost(let reason):
                    onEvent(.connectionLost(reason))
                }
            } catch let error as PasteboardError {
                guard changeCount != nil, error.isTransient else { throw error }
                failures += 1
                let delay = backoff.delay(afterFailures: failures)
                onEvent(.retrying(after: delay, reason: error.description))
                await stopRequested.wait(upTo: delay)
            }
        }
    }

    /// Copies the items and serves them until they leave the pasteboard (another copy replaced
    /// them, or a clear: `.released`) or SIGINT or SIGTERM arrives (`.stopped`, after the daemon
    /// took what fits of the promised data, so a paste still works after this process exits):
    /// what a command-line source does, with no signal handling of its own. The signals are
    /// caught while this runs. `onEvent` runs on the caller's executor, as in `run`.
    nonisolated(nonsending) public func runUntilReplacedOrInterrupted(onEvent: (Event) -> Void = { _ in }) async throws -> Outcome {
        let interrupts = Signals.Interrupts()  // caught from now on, before the first copy
        defer { interrupts.stop() }
        return try await run(until: { _ = await interrupts.next() }, onEvent: onEvent)
    }

    /// After a reconnect: puts the items back if the pasteboard still holds the restored copy
    /// (change count `previous`) or was never written since the daemon started (0), expiring at
    /// the first copy's `deadline` when it has one. Returns the new change count, or nil when
    /// another copy took the pasteboard or the deadline passed while the daemon was away.
    private func copyAgain(on board: Pasteboard, previous: Int, deadline: ContinuousClock.Instant?) async throws -> Int? {
        let current = try await board.changeCount()
        guard current == previous || current == 0 else { return nil }
        var expiry = expiry
        if let deadline {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return nil }
            expiry = remaining
        }
        do {
            return try await board.setItems(items, expiringAfter: expiry, ifChangeCount: current)
        } catch let error as PasteboardError where error.code == .conflict {
            return nil
        }
    }

    /// Serves the promises until they are released, the source is asked to stop, or the
    /// connection is lost.
    private func serve(
        on connection: PasteboardConnection, board: Pasteboard, changeCount: Int, stop: Latch,
        whileConnected: @escaping @Sendable (Pasteboard, Int) async -> Void
    ) async -> Phase {
        await withTaskGroup(of: Phase?.self) { group in
            group.addTask {
                await connection.waitUntilPromisesReleased()
                if let reason = connection.lostReason { return .lost(reason) }
                return .ended(.released)
            }
            group.addTask {
                await stop.wait(upTo: nil)
                return Task.isCancelled ? nil : .ended(.stopped)
            }
            group.addTask {
                await whileConnected(board, changeCount)
                return nil
            }
            var phase = Phase.ended(.stopped)
            while let next = await group.next() {
                guard let next else { continue }
                phase = next
                break
            }
            group.cancelAll()
            return phase
        }
    }
}

extension PasteboardError {
    /// True for failures a later attempt may not meet: the daemon unreachable or the connection lost.
    public var isTransient: Bool {
        switch self {
        case .daemonUnreachable, .connectionLost: true
        default: false
        }
    }
}

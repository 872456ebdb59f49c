import Logging
import NIOCore
import PasteboardProtocol
import PasteboardSystem
import Synchronization

/// Closes a connection that takes too long to say `hello`, or that stays idle too long: no frame
/// received, no request in flight and no promise on any pasteboard. The client hears why
/// (`limit-reached` on request id 0) before the connection closes; no other client notices.
final class ConnectionWatchdog: Sendable {
    private struct State {
        var lastActivity: ContinuousClock.Instant
        var handshaken = false
        var client: ConnectedClient?
    }

    private let state: Mutex<State>
    private let started: ContinuousClock.Instant
    private let handshakeTimeout: Double?
    private let idleTimeout: Double?
    /// The connection's loop, whose timers the deadlines use (see `EventLoop.sleep(until:)`).
    private let eventLoop: any EventLoop
    /// Finished when the handshake completes, waking the wait for it.
    private let handshake = AsyncStream.makeStream(of: Never.self)

    /// Watches a connection accepted now, on `eventLoop`, with the configuration's timeouts
    /// (nil: no limit).
    init(handshakeTimeout: Double?, idleTimeout: Double?, eventLoop: any EventLoop) {
        let now = ContinuousClock.now
        started = now
        state = Mutex(State(lastActivity: now))
        self.handshakeTimeout = handshakeTimeout
        self.idleTimeout = idleTimeout
        self.eventLoop = eventLoop
    }

    /// A frame arrived.
    func noteActivity() {
        state.withLock { $0.lastActivity = .now }
    }

    /// The handshake completed: from now on only the idle timeout applies, and the client is
    /// busy while it has promises on a pasteboard.
    func noteHandshake(client: ConnectedClient) {
        state.withLock {
            $0.handshaken = true
            $0.client = client
            $0.lastActivity = .now
        }
        handshake.continuation.finish()
    }

    /// Waits for `expiry`, then tells the client why (waiting at most a second: it may not be
    /// reading) and closes `channel`. Returns without closing when the task is cancelled.
    func closeOnExpiry(_ channel: any Channel, writer: FrameWriter, logger: Logger, isBusy: @Sendable (ConnectedClient) async -> Bool) async {
        guard let expired = await expiry(isBusy: isBusy) else { return }
        logger.notice("closing connection: \(expired.message)", metadata: ["code": "\(expired.code.rawValue)"])
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await writer.send(.error(expired), on: 0) }
            group.addTask { try? await Task.sleep(for: .seconds(1)) }
            await group.next()
            group.cancelAll()
        }
        try? await channel.close()
    }

    /// Waits for a deadline to pass and returns the error to close the connection with; returns
    /// nil when the task is cancelled (the connection ended) or no limit applies.
    /// `isBusy` says whether the connection (as the client given at the handshake) has work in
    /// flight, which keeps it from being idle.
    func expiry(isBusy: @Sendable (ConnectedClient) async -> Bool) async -> ProtocolError? {
        while !Task.isCancelled {
            let (client, lastActivity) = state.withLock { ($0.client, $0.lastActivity) }
            guard let client else {
                // Wait for the handshake (up to its limit, if any), then watch for idleness.
                let deadline = handshakeTimeout.map { started + SecondsLimit.duration($0) }
                let handshake = handshake.stream
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { for await _ in handshake {} }
                    if let deadline { group.addTask { [eventLoop] in _ = await eventLoop.sleep(until: deadline) } }
                    await group.next()
                    group.cancelAll()
                }
                if Task.isCancelled { return nil }
                if let handshakeTimeout, !state.withLock({ $0.handshaken }) {
                    return ProtocolError(.limitReached, "no hello within \(handshakeTimeout.secondsPhrase) (pasteboardd --handshake-timeout)")
                }
                continue
            }
            guard let idleTimeout else { return nil }
            guard await eventLoop.sleep(until: lastActivity + SecondsLimit.duration(idleTimeout)) else { return nil }
            guard state.withLock({ $0.lastActivity == lastActivity }) else { continue }
            if await isBusy(client) {
                noteActivity()
                continue
            }
            return ProtocolError(.limitReached, "idle for \(idleTimeout.secondsPhrase); closing the connection (pasteboardd --idle-timeout)")
        }
        return nil
    }
}

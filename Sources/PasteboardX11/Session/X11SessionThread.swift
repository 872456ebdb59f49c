import PasteboardSystem
import Synchronization

/// The thread of one session (a selection watch, a selection server, the clipboard manager):
/// its own connection to the display, made on a thread of `BlockingWork` and closed when the
/// session's loop returns. The task awaiting the session cancels it by cancelling the
/// connection (which ends the loop's poll at once), and the session's end is always awaited,
/// so no thread outlives the call that started it.
struct X11SessionThread: Sendable {
    private let cancellation = SessionCancellation()
    private let ended = OneShot<X11Error?>()

    /// Starts `loop` with a new connection to `display`, on a thread of its own. A loop ended by
    /// the cancellation (`X11Error.cancelled`) ended normally; `finally` runs last on the thread
    /// whatever happened, also when the connection could not be made.
    static func start(
        on display: X11Display, finally: @escaping @Sendable () -> Void = {},
        _ loop: @escaping @Sendable (X11Connection) throws(X11Error) -> Void
    ) throws(X11Error) -> X11SessionThread {
        let session = X11SessionThread()
        let started = BlockingWork.start {
            defer { finally() }
            let connection: X11Connection
            do throws(X11Error) { connection = try display.connect() } catch {
                return session.ended.resolve(error)
            }
            session.cancellation.attach(connection.cancellation)
            defer { connection.close() }
            do throws(X11Error) {
                try loop(connection)
                session.ended.resolve(nil)
            } catch .cancelled {
                session.ended.resolve(nil)
            } catch {
                session.ended.resolve(error)
            }
        }
        guard started else { throw .connectFailed(display: display.displayName ?? "$DISPLAY", reason: "no thread for the X connection") }
        return session
    }

    /// Cancels the session's connection (at once, or as soon as the thread has made it).
    func cancel() {
        cancellation.cancel()
    }

    /// The failure that ended the session, nil for a normal end; waits for the thread's end.
    func end() async -> X11Error? {
        await ended.value()
    }

    /// Waits for the session's end, cancelling it when the awaiting task is cancelled (and
    /// still waiting for the thread then); throws the failure that ended it.
    func finish() async throws(X11Error) {
        let failure = await withTaskCancellationHandler {
            await ended.value()
        } onCancel: {
            cancellation.cancel()
        }
        if let failure { throw failure }
    }
}

/// Cancels a session's connection, which its thread makes: a cancel before the connection
/// exists cancels it as soon as it is attached.
final class SessionCancellation: Sendable {
    private struct State {
        var cancelled = false
        var connection: X11Cancellation?
    }

    private let state = Mutex(State())

    func attach(_ cancellation: X11Cancellation) {
        let cancelled = state.withLock { state in
            state.connection = cancellation
            return state.cancelled
        }
        if cancelled { cancellation.cancel() }
    }

    func cancel() {
        let connection = state.withLock { state in
            state.cancelled = true
            return state.connection
        }
        connection?.cancel()
    }
}

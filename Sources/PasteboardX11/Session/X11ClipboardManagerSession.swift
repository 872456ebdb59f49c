import PasteboardSystem
import Synchronization

/// The X side of the freedesktop ClipboardManager specification, as an async API: the session
/// owns `CLIPBOARD_MANAGER` on a connection and a thread of its own (`BlockingWork`), and when an
/// application that quits while it owns CLIPBOARD converts it to `SAVE_TARGETS`, reads the
/// targets `choose` picks (from the application's list, or from everything it offers) from the
/// CLIPBOARD owner, within `budget` bytes in all (a target that does not fit is skipped, smaller
/// ones after it are still read), and hands them to `keep` — the caller's policy, awaited, for
/// at most `keepTimeout` — before it answers the application: an empty property when kept,
/// None when not. The application exits with its copy safe.
///
/// Another clipboard manager owning `CLIPBOARD_MANAGER` is reported once and left alone: the
/// session takes the selection only if that manager leaves.
public final class X11ClipboardManagerSession: Sendable {
    /// What the session did, for a log line or a test to wait on.
    public enum Event: Sendable, Equatable {
        /// The session owns `CLIPBOARD_MANAGER`.
        case managing
        /// Another clipboard manager owns it (reported once).
        case anotherManager(String)
        /// A target was not saved (over the budget, refused by the owner, ...).
        case skipped(String)
        /// A SAVE_TARGETS request was refused (answered None), and why.
        case refused(String)
    }

    /// One target read from the exiting application, with its bytes as the owner sent them.
    public struct SavedTarget: Sendable, Equatable {
        public let target: String
        public let bytes: [UInt8]
    }

    /// What an exiting application handed over: who it was, what it offered, the targets read
    /// (in `choose`'s order), and those not read with the reason.
    public struct Handover: Sendable, Equatable {
        /// The CLIPBOARD owner the bytes came from.
        public let owner: WindowID
        /// The targets the application listed (or offered, with no list).
        public let offered: [String]
        public let saved: [SavedTarget]
        public let skipped: [String]
    }

    /// The manager selection, and the selection whose data it saves.
    public static let managerSelection = ManagerSelectionLoop.managerSelection
    public static let clipboard = ManagerSelectionLoop.clipboard

    let display: X11Display
    let windows: any X11WindowRegistry
    let budget: Int
    let readSize: Int
    let keepTimeout: Duration
    let choose: @Sendable ([String]) -> [String]

    /// A session on `display` whose windows are recorded in `windows`; `choose` picks the
    /// targets worth saving from those offered, best first.
    public init(
        display: X11Display, windows: any X11WindowRegistry, budget: Int, readSize: Int = 1 << 20, keepTimeout: Duration = .seconds(30),
        choose: @escaping @Sendable ([String]) -> [String]
    ) {
        self.display = display
        self.windows = windows
        self.budget = budget
        self.readSize = readSize
        self.keepTimeout = keepTimeout
        self.choose = choose
    }

    /// Serves `CLIPBOARD_MANAGER` until the task is cancelled (returns, once the session's
    /// thread ended) or the X connection fails (throws). `keep` is asked, one handover at a
    /// time, whether the data was kept; the application waits for its answer.
    public func run(
        onEvent: @escaping @Sendable (Event) -> Void = { _ in }, keep: (Handover) async -> Bool
    ) async throws(X11Error) {
        let requests = AnswerChannel<Handover, Bool>()
        let session = try X11SessionThread.start(on: display, finally: { requests.close() }) { [self] (connection) throws(X11Error) in
            try ManagerSelectionLoop(session: self, connection: connection).run(onEvent: onEvent) { handover in
                requests.ask(handover, timeout: keepTimeout) ?? false
            }
        }
        await withTaskCancellationHandler {
            for await handover in requests.questions {
                requests.answer(await keep(handover))
            }
        } onCancel: {
            session.cancel()
            requests.close()
        }
        // However this ends, the thread ends with it (awaited even when cancelled), and a
        // question it asks is answered.
        session.cancel()
        requests.close()
        if let failure = await session.end() { throw failure }
    }
}


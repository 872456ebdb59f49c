#if canImport(Glibc)
import Glibc
#endif
import CPasteboardSystem
internal import PasteboardSystem
import Synchronization

/// Turns SIGINT and SIGTERM into events a command-line app acts on (cancel a paste, abandon a
/// drag, hand over lazy data: `LiveSource.runUntilReplacedOrInterrupted`) instead of dying
/// mid-write, as pb and gallery do.
///
/// A C handler writes each signal to a pipe (nothing is lost between catching and listening);
/// a loop on a thread of its own (`BlockingWork`) reads the pipe and hands each signal to whoever listens then, or, when
/// nobody does (before the first wait, between two), to the next listener: no interrupt that
/// arrives after the handler is installed is lost.
package enum Signals {
    /// Runs `body`; when SIGINT or SIGTERM arrives first, cancels it (its error, usually
    /// `CancellationError`, is rethrown once it has cleaned up). The signals are caught from
    /// the moment this is called, before `body` starts.
    package static func cancellingOnInterrupt<Result: Sendable>(_ body: sending @escaping () async throws -> Result) async throws -> Result {
        let interrupts = Interrupts()
        let task = Task(operation: body)
        let watcher = Task {
            if await interrupts.next() != nil { task.cancel() }
        }
        defer {
            watcher.cancel()
            interrupts.stop()
        }
        let result = await withTaskCancellationHandler { await task.result } onCancel: { task.cancel() }
        return try result.get()
    }

    /// For code that blocks instead of awaiting (pb's quick path): catches SIGINT and SIGTERM
    /// from now on and returns a descriptor that becomes readable when one arrives, to poll
    /// beside the descriptor being waited on; nil when the signals cannot be caught. Not for a
    /// process that also uses `cancellingOnInterrupt` or `next`, which read the same pipe.
    package static func interruptDescriptor() -> Int32? {
        let fd = pasteboard_catch_interrupts()
        return fd >= 0 ? fd : nil
    }

    /// Waits for SIGINT or SIGTERM and returns it; nil when the waiting task is cancelled.
    package static func next() async -> Int32? {
        let interrupts = Interrupts()
        defer { interrupts.stop() }
        return await interrupts.next()
    }

    /// Listens for SIGINT and SIGTERM from creation until `stop`.
    final class Interrupts: Sendable {
        private let id: Int
        private let stream: AsyncStream<Int32>

        init() {
            let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
            self.stream = stream
            self.id = Dispatcher.shared.listen(continuation)
        }

        /// The next signal; nil when the waiting task is cancelled.
        func next() async -> Int32? {
            for await signalNumber in stream { return signalNumber }
            return nil
        }

        func stop() {
            Dispatcher.shared.stopListening(id)
        }
    }

    /// The process's one reader of the signal pipe.
    private final class Dispatcher: Sendable {
        static let shared = Dispatcher()
        private final class Listeners: Sendable {
            struct State {
                var next = 0
                var all: [Int: AsyncStream<Int32>.Continuation] = [:]
                /// Signals that arrived while nobody listened (between two waits, or before the
                /// first: the handler may have been installed, and the signal caught, before any
                /// listener registered), for the next listener: no interrupt is lost.
                var pending: [Int32] = []
            }

            let state = Mutex(State())

            /// The most signals kept for a listener to come (a second Ctrl-C adds nothing).
            static let pendingLimit = 4

            /// Hands `signals` to every listener, or keeps them for the next when none listens.
            func deliver(_ signals: [Int32]) {
                let current = state.withLock { state -> [AsyncStream<Int32>.Continuation] in
                    if state.all.isEmpty {
                        for signal in signals where state.pending.count < Self.pendingLimit { state.pending.append(signal) }
                    }
                    return Array(state.all.values)
                }
                for signal in signals {
                    for listener in current { listener.yield(signal) }
                }
            }
        }

        private let listeners = Listeners()

        /// Starts the loop that reads the pipe, for the process's lifetime (one thread, which
        /// waits in poll between signals).
        private init() {
            let fd = pasteboard_catch_interrupts()
            guard fd >= 0 else { return }
            BlockingWork.start { [listeners] in
                var bytes = [UInt8](repeating: 0, count: 16)
                while true {
                    var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&waiting, 1, -1) > 0 else { continue }
                    let count = read(fd, &bytes, bytes.count)
                    guard count > 0 else { continue }
                    listeners.deliver(bytes.prefix(count).map(Int32.init))
                }
            }
        }

        /// Registers `continuation`, which first gets the signals that arrived while nobody listened.
        func listen(_ continuation: AsyncStream<Int32>.Continuation) -> Int {
            listeners.state.withLock { state in
                state.next += 1
                state.all[state.next] = continuation
                for signal in state.pending { continuation.yield(signal) }
                state.pending = []
                return state.next
            }
        }

        func stopListening(_ id: Int) {
            let removed = listeners.state.withLock { $0.all.removeValue(forKey: id) }
            removed?.finish()
        }
    }
}

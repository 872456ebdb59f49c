internal import NIOCore
internal import PasteboardProtocol
import PasteboardSystem
import Synchronization

/// The promised representations a connection has put on pasteboards, and the serving of the
/// daemon's `produce` requests for them: each runs its load handler in a task, streams the
/// bytes under credit, and tells the handler's observer how the load went.
final class PromiseServer: Sendable {
    struct Promise: Sendable {
        let handler: ItemProvider.LoadHandler
        let observer: (@Sendable (SourceEvent) -> Void)?
    }

    private struct State {
        var promises: [Int: Promise] = [:]
        var nextPromise = 1
        var tasks: [UInt32: Task<Void, Never>] = [:]
        /// Opened when the last promise is released (or the connection closes); a new one
        /// follows when promises are registered again.
        var released = Latch()
        var closed = false
    }

    private let state = Mutex(State())

    /// Keeps `promise` until the daemon releases it; returns its number for the `write`.
    func register(_ promise: Promise) -> Int {
        state.withLock { state in
            let number = state.nextPromise
            state.nextPromise += 1
            if state.promises.isEmpty, state.released.isOpen, !state.closed { state.released = Latch() }
            state.promises[number] = promise
            return number
        }
    }

    /// True while any promise of this connection is on a pasteboard.
    var hasPromises: Bool { state.withLock { !$0.promises.isEmpty } }

    /// The daemon no longer needs these promises.
    func release(_ numbers: [Int]) {
        let released = state.withLock { state -> Latch? in
            for number in numbers { state.promises[number] = nil }
            return state.promises.isEmpty ? state.released : nil
        }
        released?.open()
    }

    /// Returns once no promise of this connection is on any pasteboard (at once if none is), or
    /// when the task is cancelled.
    func waitUntilReleased() async {
        let released = state.withLock { state in
            state.promises.isEmpty || state.closed ? nil : state.released
        }
        await released?.wait(upTo: nil)
    }

    /// Wakes every waiter (the connection is closing).
    func wakeAll() {
        state.withLock { state in
            state.closed = true
            return state.released
        }.open()
    }

    /// Serves one `produce` on daemon request `id`; `frames` carries the daemon's later frames
    /// on that id (credit is already routed to `window`).
    func serve(_ request: ProduceRequest, id: UInt32, frames: RequestFrames,
               window: SendWindow, connection: PasteboardConnection) {
        let promise = state.withLock { $0.promises[request.promise] }
        let task = Task {
            defer {
                connection.closeRequest(id)
                _ = self.state.withLock { $0.tasks.removeValue(forKey: id) }
            }
            guard let promise else {
                try? await connection.send(.error(ProtocolError(.sourceUnavailable, "this client no longer holds promise \(request.promise)")), on: id)
                return
            }
            let writer: RepresentationWriter
            do {
                writer = try Self.writer(for: request, id: id, window: window, observer: promise.observer, connection: connection)
            } catch {
                try? await connection.send(.error(ProtocolError(.sourceUnavailable, "cannot take the handed-off socket: \(ErrorMessage.text(for: error))")), on: id)
                promise.observer?(.failed(ErrorMessage.text(for: error)))
                return
            }
            let outcome = await Self.run(promise, writer: writer, frames: frames, window: window, connection: connection, id: id)
            promise.observer?(outcome)
        }
        state.withLock { $0.tasks[id] = task }
    }

    /// The writer for a produce: into data frames, or into the socket the daemon handed over.
    private static func writer(
        for request: ProduceRequest, id: UInt32, window: SendWindow,
        observer: (@Sendable (SourceEvent) -> Void)?, connection: PasteboardConnection
    ) throws -> RepresentationWriter {
        guard request.handoff == true else {
            return RepresentationWriter(request: request, connection: connection, id: id, window: window)
        }
        guard let handoff = connection.attachHandoff() else { throw PasteboardError.connectionLost("no hand-off socket is attached") }
        let stream = HandoffStream(try handoff.descriptor(for: id))
        var progress: (@Sendable (LoadProgress) -> Void)?
        if let observer { progress = { observer(.progress($0)) } }
        return RepresentationWriter(request: request, connection: connection, id: id, window: window, handoff: stream, progress: progress)
    }

    private enum Step: Sendable {
        case produced
        case handlerFailed(String)
        case daemon(SourceEvent)
    }

    private static func run(
        _ promise: Promise, writer: RepresentationWriter, frames: RequestFrames,
        window: SendWindow, connection: PasteboardConnection, id: UInt32
    ) async -> SourceEvent {
        await withTaskGroup(of: Step.self) { group in
            group.addTask {
                do {
                    try await promise.handler(writer)
                    try await writer.finish()
                    return .produced
                } catch is CancellationError {
                    return .daemon(.cancelled)
                } catch {
                    return .handlerFailed(ErrorMessage.text(for: error))
                }
            }
            group.addTask {
                do {
                    for try await frame in frames where frame.kind == .message {
                        switch try frame.decodeMessage() {
                        case .progress(let report):
                            promise.observer?(.progress(LoadProgress(completed: report.completed, total: report.total)))
                        case .ok:
                            return .daemon(.delivered)
                        case .error(let error):
                            return .daemon(error.code == .cancelled ? .cancelled : .failed(error.message))
                        default:
                            continue
                        }
                    }
                    return .daemon(.failed("the connection to pasteboardd closed"))
                } catch {
                    return .daemon(.failed(ErrorMessage.text(for: error)))
                }
            }
            var produced = false
            while let step = await group.next() {
                switch step {
                case .produced:
                    produced = true  // now wait for the daemon's verdict
                case .handlerFailed(let message):
                    group.cancelAll()
                    try? await connection.send(.error(ProtocolError(.sourceUnavailable, message)), on: id)
                    return .failed(message)
                case .daemon(let event):
                    // The daemon ended the produce (or the handler saw cancellation): stop the handler.
                    window.fail(CancellationError())
                    group.cancelAll()
                    if case .delivered = event, !produced { continue }
                    return event
                }
            }
            return .failed("the load ended without an answer from pasteboardd")
        }
    }

    /// Cancels every handler (the connection closed).
    func cancelAll() {
        let tasks = state.withLock { Array($0.tasks.values) }
        for task in tasks { task.cancel() }
    }
}

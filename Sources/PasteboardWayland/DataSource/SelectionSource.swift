import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Owns a selection on the compositor with MIME types whose bytes are produced only when a
/// reader asks: the Wayland half of "from Pasteboard to the desktop".
///
/// It shares the ``SelectionReader``'s connection (one client, one data-control device for both
/// directions, as a clipboard manager is): creating it sends `create_data_source`, an `offer`
/// per MIME type and `set_selection` (or `set_primary_selection`). Each `send(mime_type, fd)`
/// the compositor forwards from a reader starts `provider` in its own task with a
/// ``SourceTransfer`` to write into; the pipe is closed when the provider returns or throws.
/// The event thread only hands sends out, so any number run at once and a slow reader delays
/// no other request. A send for a type not offered is answered by closing the pipe unwritten.
///
/// When another client takes the selection the compositor cancels the source: it is destroyed,
/// ``isCancelled`` becomes true and ``events()`` reports ``Event/cancelled``, so the bridge lets
/// go. Its own newer source also cancels an older one. Dropping the last reference, or
/// ``destroy(cancellingTransfers:)``, lets go of the selection (the compositor clears it if
/// ours was still current). Note that the reader's device also reports our own source as a
/// new selection offer; telling our offer from a peer's is the caller's business (compare MIME
/// types and timing, or mark the offer with a private MIME type).
public final class SelectionSource: Sendable {
    /// Produces one MIME type into a transfer: write the bytes and return; throw to abandon.
    public typealias Provider = @Sendable (SourceTransfer) async throws -> Void

    /// The selection owned.
    public let kind: SelectionKind
    /// The MIME types offered, in order, duplicates dropped.
    public let mimeTypes: [String]
    /// The source's object id on the connection (for logs).
    public let objectID: UInt32

    private let core: ConnectionCore
    private let shared: SourceShared

    /// Takes the selection of `kind` on `reader`'s connection, offering `mimeTypes` (the best
    /// first: readers such as wl-paste pick the first they accept). `stallTimeout` bounds how
    /// long one write waits for a reader that takes nothing (see ``SourceTransfer``).
    ///
    /// Throws ``WaylandError/noMIMETypes``, ``WaylandError/invalidMIMEType(_:)`` (empty, longer
    /// than ``SourceLimits/maxMIMETypeLength`` bytes, or past ``SourceLimits/maxMIMETypes``),
    /// ``WaylandError/primarySelectionUnsupported`` on zwlr version 1, or the connection's failure.
    public init(
        offering mimeTypes: [String],
        as kind: SelectionKind = .clipboard,
        on reader: SelectionReader,
        stallTimeout: Duration = .seconds(30),
        provider: @escaping Provider
    ) throws(WaylandError) {
        let shared = SourceShared()
        let core = reader.core
        let objectID = try core.createSource(offering: mimeTypes, for: kind) { event in
            shared.handle(event, kind: kind, stallTimeout: stallTimeout, provider: provider)
        }
        self.kind = kind
        self.objectID = objectID
        self.core = core
        self.shared = shared
        self.mimeTypes = core.state.withLock { $0.session.sourceMIMETypes(objectID) } ?? mimeTypes
    }

    deinit {
        destroy()
    }

    /// Whether the source was cancelled (replaced, or the connection ended) or destroyed.
    public var isCancelled: Bool {
        shared.state.withLock { $0.ended }
    }

    /// The sends being served now.
    public var transfersInFlight: Int {
        shared.state.withLock { $0.tasks.count }
    }

    /// The source's events from now on. Each call gives its own stream; it finishes once the
    /// source has ended and its last transfer has.
    public func events() -> AsyncStream<Event> {
        shared.observe()
    }

    /// Lets go of the selection: destroys the source (the compositor clears the selection if it
    /// was still ours). Transfers in flight finish unless `cancellingTransfers`, which cancels
    /// their providers' tasks. Idempotent.
    public func destroy(cancellingTransfers: Bool = false) {
        core.destroySource(objectID)
        shared.end(cancellingTransfers: cancellingTransfers, report: false)
    }
}

/// The part of a source its event sink and transfer tasks share (they must not keep the
/// ``SelectionSource`` alive, whose deinit lets go of the selection).
final class SourceShared: Sendable {
    struct State {
        var ended = false
        var tasks: [UInt64: Task<Void, Never>] = [:]
        var nextTask: UInt64 = 0
        var observers = ObserverList<SelectionSource.Event>()
    }

    let state = Mutex(State())

    func observe() -> AsyncStream<SelectionSource.Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: SelectionSource.Event.self, bufferingPolicy: .bufferingNewest(256))
        let id = state.withLock { state in state.ended && state.tasks.isEmpty ? nil : state.observers.add(continuation) }
        ObserverList.track(continuation, id: id) { [weak self] id in self?.state.withLock { $0.observers.remove(id) } }
        return stream
    }

    /// A session event for this source (on the event thread: returns at once).
    func handle(_ event: SourceEvent, kind: SelectionKind, stallTimeout: Duration, provider: @escaping SelectionSource.Provider) {
        switch event {
        case .send(_, let mimeType, let descriptor):
            let transfer: SourceTransfer
            do {
                transfer = try SourceTransfer(descriptor: descriptor, mimeType: mimeType, kind: kind, stallTimeout: stallTimeout)
            } catch {
                emit(.transferEnded(.init(mimeType: mimeType, bytesWritten: 0, outcome: .failed(error))))
                return
            }
            start(transfer, provider: provider)
        case .sendRefused(_, let mimeType):
            emit(.sendRefused(mimeType: mimeType))
        case .cancelled:
            end(cancellingTransfers: false, report: true)
        }
    }

    /// Marks the source ended; reports `cancelled` when the compositor (not we) ended it.
    func end(cancellingTransfers: Bool, report: Bool) {
        let (first, tasks) = state.withLock { state in
            defer { state.ended = true }
            return (!state.ended, Array(state.tasks.values))
        }
        if first, report { emit(.cancelled) }
        if cancellingTransfers { for task in tasks { task.cancel() } }
        finishIfDone()
    }

    private func start(_ transfer: SourceTransfer, provider: @escaping SelectionSource.Provider) {
        state.withLock { state in
            let id = state.nextTask
            state.nextTask += 1
            // Inserted under the lock before it can finish, so its removal always finds it.
            state.tasks[id] = Task { [self] in
                let outcome: SelectionSource.TransferOutcome
                do {
                    try await provider(transfer)
                    outcome = .completed
                } catch WaylandError.readerClosed {
                    outcome = .readerClosed
                } catch {
                    outcome = .failed(error)
                }
                transfer.finish()
                _ = self.state.withLock { $0.tasks.removeValue(forKey: id) }
                emit(.transferEnded(.init(mimeType: transfer.mimeType, bytesWritten: transfer.bytesWritten, outcome: outcome)))
                finishIfDone()
            }
        }
    }

    /// Yields outside the lock: a yield resumes the observing task, which takes that task's
    /// status lock, while a cancellation of the task holds its status lock and takes ours (the
    /// stream's onTermination). Yielding under ours deadlocked the bridge when a Wayland
    /// connection failed during a group's cancellation (seen in CI, stacks taken with gdb).
    private func emit(_ event: SelectionSource.Event) {
        let observers = state.withLock { $0.observers.members }
        for observer in observers { observer.yield(event) }
    }

    /// Finishes the observers once nothing more can happen.
    /// finish() runs the stream's onTermination at once, which takes the lock: called outside it.
    private func finishIfDone() {
        let observers = state.withLock { state in
            guard state.ended, state.tasks.isEmpty else { return [ObserverList<SelectionSource.Event>.Observer]() }
            return state.observers.removeAll()
        }
        for observer in observers { observer.finish() }
    }
}

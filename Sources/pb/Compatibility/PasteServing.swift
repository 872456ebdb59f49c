#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import Pasteboard
import PasteboardCLI
import PasteboardTypes
import Synchronization

/// Paste-once and paste-N (`wl-copy -o`, `xclip -l N`): the originals keep the data in their own
/// process and exit after N pastes, which empties the clipboard. Here the mode's process keeps
/// the bytes as a live source and the daemon routes each paste to it; after the Nth delivered
/// paste, or on SIGINT or SIGTERM, it clears the pasteboard (unless another copy replaced its
/// item meanwhile) and exits. The daemon never captures these bytes when the process leaves
/// (a capture load is refused), so they never outlive the count.
struct PasteServing: Sendable {
    /// The tool, for its client name and its messages.
    let tool: CompatibilityTool
    /// The named pasteboard.
    let pasteboard: String
    /// The bytes' type.
    let type: TypeIdentifier
    /// The bytes, as read (in chunks: never joined, so they are in memory once).
    let chunks: [ByteBuffer]
    /// Whether the item is a secret.
    let sensitive: Bool
    /// How many pastes to serve, at least 1.
    let count: Int

    /// What a paste beyond the count is refused with: one that comes after the last paste but
    /// before the pasteboard is cleared. The modes take it for an empty pasteboard (see
    /// `ClipboardAccess.paste`), as the original's exit leaves one.
    static let exhaustedMessage = "the paste-once data was pasted already (its source is clearing the pasteboard)"

    /// The largest paste count accepted: more than anyone pastes, small enough for any counter.
    static let maximumCount = 1_000_000_000

    /// Serves in this process until the count is reached, the item is replaced, or a signal
    /// comes; `ready` runs once the item is on the pasteboard.
    func serve(ready: @escaping @Sendable () -> Void = {}) async throws {
        let remaining = Countdown(count)
        let (served, lastServed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        var item = ItemProvider(sensitive: sensitive)
        let chunks = chunks
        item.registerDataRepresentation(for: type, size: chunks.reduce(0) { $0 + $1.readableBytes }, observer: { event in
            switch event {
            case .delivered: if remaining.delivered() { lastServed.yield() }
            case .failed, .cancelled: remaining.giveBack()  // a paste that did not arrive does not count
            case .progress: break
            }
        }, loadHandler: { writer in
            // Handing the bytes to the daemon would let them outlive the count; a paste beyond
            // it (one that came before the clear below) gets nothing.
            guard !writer.isCapture else { throw CLIError.failure("paste-once data is never captured") }
            guard remaining.claim() else { throw CLIError.failure(Self.exhaustedMessage) }
            for chunk in chunks { try await writer.write(chunk) }
        })
        let source = LiveSource(items: [item], pasteboard: pasteboard, clientName: tool.rawValue)
        let interrupts = InterruptLatch()
        // The data lives in this process alone: when the daemon goes away its item goes with
        // it (the restarted daemon has it unavailable), so this ends, as the original ends
        // with its display.
        let (lost, connectionLost) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        _ = try await source.run(until: {
            // A signal does not stop the run from here: it clears the pasteboard (below), which
            // releases the item and ends the run.
            for await _ in lost { return }
        }, onEvent: { event in
            switch event {
            case .copied(_, reconnected: false): ready()
            case .connectionLost, .retrying: connectionLost.yield()
            case .copied: break
            }
        }, whileConnected: { board, changeCount in
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in served { return }
                }
                group.addTask { await interrupts.wait() }
                await group.next()
                group.cancelAll()
            }
            guard !Task.isCancelled else { return }
            _ = try? await board.clear(ifChangeCount: changeCount)
        })
    }
}

/// SIGINT or SIGTERM, caught from creation on and remembered, so a signal that comes while
/// the source reconnects is still seen by the next wait.
private final class InterruptLatch: Sendable {
    private let signals = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    private let listener: Task<Void, Never>

    init() {
        let continuation = signals.continuation
        listener = Task {
            if await Signals.next() != nil { continuation.yield() }
        }
    }

    /// Returns once a signal came (at once when one came before), or when cancelled.
    func wait() async {
        for await _ in signals.stream { return }
    }
}

/// The pastes left to serve, counted across reconnections: a load claims one when it starts
/// (so no more than the count ever start), and one that fails gives it back.
private final class Countdown: Sendable {
    /// Pastes not yet claimed, and claimed ones not yet delivered.
    private let state: Mutex<(left: Int, inFlight: Int)>

    init(_ count: Int) {
        state = Mutex((count, 0))
    }

    /// Claims a paste; false when none is left.
    func claim() -> Bool {
        state.withLock { state in
            guard state.left > 0 else { return false }
            state.left -= 1
            state.inFlight += 1
            return true
        }
    }

    /// Returns a claimed paste that was not delivered.
    func giveBack() {
        state.withLock { state in
            guard state.inFlight > 0 else { return }
            state.inFlight -= 1
            state.left += 1
        }
    }

    /// Marks a claimed paste delivered; true when it was the last.
    func delivered() -> Bool {
        state.withLock { state in
            state.inFlight = max(0, state.inFlight - 1)
            return state.left == 0 && state.inFlight == 0
        }
    }
}

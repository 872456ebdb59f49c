import Foundation
import Pasteboard
import PasteboardDesktop
import Synchronization

/// Lanes of the desktop bridge (importers, exporters, the X11 clipboard manager) that a test runs
/// against its daemon on one connection, as pasteboard-bridge runs them: in a task until they end
/// or are stopped. Whether and how they ended can be waited for.
final class BridgeLanes: Sendable {
    /// One lane: runs on the shared connection until cancelled (or until it fails).
    typealias Lane = @Sendable (PasteboardConnection) async throws -> Void

    private let task: Task<Void, any Error>
    private let end: LaneEnd

    /// Starts `lanes` on one connection to the daemon at `socketPath`, with the bridge's client name.
    init(socketPath: String, _ lanes: [Lane]) {
        let end = LaneEnd()
        self.end = end
        task = Task {
            do {
                try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: X11ClipboardImporter.clientName, autoStart: false) { connection in
                    try await withThrowingDiscardingTaskGroup { group in
                        for lane in lanes { group.addTask { try await lane(connection) } }
                    }
                }
                end.mark(nil)
            } catch {
                end.mark("\(error)")
                throw error
            }
        }
    }

    /// Whether the lanes have ended (by themselves, or stopped).
    var hasEnded: Bool { end.state.withLock { $0.ended } }

    /// The error they ended with (nil while running, or after a clean end).
    var error: String? { end.state.withLock { $0.error } }

    /// Waits until the lanes end, at most `timeout` seconds; whether they did.
    func waitForEnd(timeout: TimeInterval = 10) -> Bool {
        end.latch.wait(until: Date().addingTimeInterval(timeout))
    }

    /// Cancels the lanes and waits (at most `timeout` seconds) until they have ended; whether they did.
    @discardableResult
    func stop(timeout: TimeInterval = 20) -> Bool {
        task.cancel()
        return waitForEnd(timeout: timeout)
    }
}

/// How the lanes ended, shared with their task.
private final class LaneEnd: Sendable {
    let state = Mutex<(ended: Bool, error: String?)>((false, nil))
    let latch = Latch()

    func mark(_ error: String?) {
        state.withLock { $0 = (true, error) }
        latch.open()
    }
}

/// The events one side of a bridge (or any task of the test) reported, shared with its task.
final class EventLog<Event: Sendable & Equatable>: Sendable {
    private let events = Mutex<[Event]>([])
    func append(_ event: Event) { events.withLock { $0.append(event) } }
    var all: [Event] { events.withLock { $0 } }
    func contains(_ event: Event) -> Bool { events.withLock { $0.contains(event) } }
    func count(where matches: (Event) -> Bool) -> Int { all.filter(matches).count }
}

import PasteboardProtocol
import Synchronization

/// The requests of one connection that run as tasks (reads, watches): how to cancel each and
/// where its flow-control credit goes.
final class RequestTable: Sendable {
    private struct Entry {
        var task: Task<Void, Never>?
        var window: SendWindow?
    }

    private let entries = Mutex<[UInt32: Entry]>([:])

    /// True when `id` is in flight here.
    func contains(_ id: UInt32) -> Bool {
        entries.withLock { $0[id] != nil }
    }

    /// Reserves `id` with its send window before its task starts; false if already in use.
    func reserve(_ id: UInt32, window: SendWindow?) -> Bool {
        entries.withLock { entries in
            guard entries[id] == nil else { return false }
            entries[id] = Entry(task: nil, window: window)
            return true
        }
    }

    /// Attaches the task serving `id`; cancels it at once if the request was removed meanwhile.
    func attach(_ task: Task<Void, Never>, to id: UInt32) {
        let stillThere = entries.withLock { entries -> Bool in
            guard entries[id] != nil else { return false }
            entries[id]?.task = task
            return true
        }
        if !stillThere { task.cancel() }
    }

    /// Adds credit to `id`'s send window (ignored when the request already ended).
    func grant(_ bytes: Int, to id: UInt32) {
        entries.withLock { $0[id]?.window }?.grant(bytes)
    }

    /// Cancels `id`'s task; false when no such request is in flight.
    @discardableResult
    func cancel(_ id: UInt32) -> Bool {
        guard let entry = entries.withLock({ $0[id] }) else { return false }
        entry.task?.cancel()
        entry.window?.fail(CancellationError())
        return true
    }

    /// Forgets `id` (its task calls this when it ends).
    func remove(_ id: UInt32) {
        _ = entries.withLock { $0.removeValue(forKey: id) }
    }

    /// Cancels every request and waits for their tasks to end.
    func cancelAllAndWait() async {
        let all = entries.withLock { entries in Array(entries.values) }
        for entry in all {
            entry.task?.cancel()
            entry.window?.fail(CancellationError())
        }
        for entry in all { await entry.task?.value }
    }
}

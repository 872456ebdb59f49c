import PasteboardProtocol
import Synchronization

/// The requests of one connection that run as tasks (reads, watches): how to stop each and
/// where its flow-control credit goes.
///
/// A client's `cancel` does not cancel the task (a cancelled task may no longer write, and the
/// request still owes its terminal `error cancelled`); it calls the request's stop handler,
/// which makes the task end on its own and answer.
final class RequestTable: Sendable {
    private struct Entry {
        var task: Task<Void, Never>?
        var window: SendWindow?
        var stop: @Sendable () -> Void
        var isLoad: Bool
    }

    private let entries = Mutex<[UInt32: Entry]>([:])

    /// True when `id` is in flight here.
    func contains(_ id: UInt32) -> Bool {
        entries.withLock { $0[id] != nil }
    }

    /// True when no request is in flight.
    var isEmpty: Bool {
        entries.withLock { $0.isEmpty }
    }

    /// Reserves `id` with its send window and stop handler before its task starts; false if in
    /// use, or when `limit` loads are already in flight and this is a load too.
    func reserve(_ id: UInt32, window: SendWindow?, isLoad: Bool = false, limit: Int = .max, stop: @escaping @Sendable () -> Void) -> Bool {
        entries.withLock { entries in
            guard entries[id] == nil else { return false }
            if isLoad, entries.values.count(where: \.isLoad) >= limit { return false }
            entries[id] = Entry(task: nil, window: window, stop: stop, isLoad: isLoad)
            return true
        }
    }

    /// Attaches the task serving `id`.
    func attach(_ task: Task<Void, Never>, to id: UInt32) {
        entries.withLock { $0[id]?.task = task }
    }

    /// Adds credit to `id`'s send window (ignored when the request already ended).
    func grant(_ bytes: Int, to id: UInt32) {
        entries.withLock { $0[id]?.window }?.grant(bytes)
    }

    /// Asks `id`'s task to stop and answer `cancelled`; false when no such request is in flight.
    @discardableResult
    func cancel(_ id: UInt32) -> Bool {
        guard let entry = entries.withLock({ $0[id] }) else { return false }
        entry.stop()
        return true
    }

    /// Forgets `id` (its task calls this just before its terminal frame).
    func remove(_ id: UInt32) {
        _ = entries.withLock { $0.removeValue(forKey: id) }
    }

    /// The connection is gone: stops and cancels every request and waits for their tasks.
    func cancelAllAndWait() async {
        let all = entries.withLock { entries in Array(entries.values) }
        for entry in all {
            entry.stop()
            entry.task?.cancel()
        }
        for entry in all { await entry.task?.value }
    }
}

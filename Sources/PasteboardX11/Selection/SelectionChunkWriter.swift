import Synchronization

/// Where a selection owner's provider writes the bytes of one conversion, with backpressure.
///
/// Why a stream and not a byte array: the bridge loads a representation lazily from the daemon
/// only when a requestor asks, and it may be far larger than memory should hold. `write`
/// returns as soon as the bytes are buffered, and awaits while more than
/// `SelectionTransferSizing.bufferBytes` wait for the requestor, so a transfer holds about two
/// chunks however large the data. A write wakes the owner's thread only when the owner has
/// something to do with it: the first bytes after none, the bytes buffered passing a chunk's
/// worth (`wakeAbove`), and the end; so a fast provider's many small writes cost the owner two
/// wakes per chunk, and the chunks it sends are whole ones.
///
/// The provider returning ends the data; throwing refuses the conversion (or, once INCR has
/// started, abandons it). When the owner abandons the transfer (the requestor went away or
/// stopped reading, the selection was released), the pending and every later `write` throw
/// `SelectionTransferAbandoned`.
public final class SelectionChunkWriter: Sendable {
    private struct State {
        /// The written pieces not taken yet, oldest first (`first` indexes the oldest: taking
        /// never shifts the rest).
        var runs: [ByteRun] = []
        var first = 0
        var buffered = 0
        var finished = false
        var failure: String?
        var abandoned: String?
        var waiter: CheckedContinuation<Void, any Error>?
    }

    private let state = Mutex(State())
    private let capacity: Int
    /// The bytes buffered above which the owner is woken (a chunk's worth).
    private let wakeAbove: Int
    private let wakeup: X11Wakeup

    /// The size of the chunks the owner sends (each gathered from the written pieces as they
    /// are, not joined into one array).
    public var chunkBytes: Int { wakeAbove }

    init(capacity: Int, wakeAbove: Int, wakeup: X11Wakeup) {
        self.capacity = capacity
        self.wakeAbove = min(wakeAbove, capacity)
        self.wakeup = wakeup
    }

    /// Appends `bytes` to the data; awaits while the requestor is more than a buffer behind.
    /// The bytes are not copied: they go to the X socket from `bytes`' own storage.
    public func write(_ bytes: some ByteStorage) async throws {
        guard bytes.count > 0 else { return }
        let run = ByteRun(bytes)
        let (mustWait, wakes) = try state.withLock { state throws(SelectionTransferAbandoned) -> (Bool, Bool) in
            if let reason = state.abandoned { throw SelectionTransferAbandoned(reason: reason) }
            if state.finished { throw SelectionTransferAbandoned(reason: "the provider wrote after it returned") }
            let before = state.buffered
            state.runs.append(run)
            state.buffered += run.count
            // Woken by the first bytes after none (a ready owner starts its short wait for more)
            // and when a whole chunk is there.
            return (state.buffered > capacity, before == 0 || (before <= wakeAbove && state.buffered > wakeAbove))
        }
        if wakes { wakeup.signal() }
        guard mustWait else { return }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome: Result<Void, SelectionTransferAbandoned>? = state.withLock { state in
                if let reason = state.abandoned { return .failure(SelectionTransferAbandoned(reason: reason)) }
                if state.buffered <= capacity { return .success(()) }
                state.waiter = continuation
                return nil
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    // MARK: The owner's side

    struct Snapshot {
        let buffered: Int
        let finished: Bool
        let failure: String?
    }

    var snapshot: Snapshot { state.withLock { Snapshot(buffered: $0.buffered, finished: $0.finished, failure: $0.failure) } }

    /// The most runs one take hands over; more (a provider writing a byte at a time) are joined
    /// into one, so a chunk is never a request of thousands of pieces.
    static let maximumRuns = 64

    /// Takes up to `limit` buffered bytes as the runs they were written in (the last one split
    /// when the limit falls inside it: no copy), resuming a provider that waited for room.
    func take(upTo limit: Int) -> [ByteRun] {
        let (runs, waiter) = state.withLock { state -> ([ByteRun], CheckedContinuation<Void, any Error>?) in
            var runs: [ByteRun] = []
            var taken = 0
            var joined: [UInt8]?
            while taken < limit, state.first < state.runs.count {
                var run = state.runs[state.first]
                if run.count > limit - taken {
                    let (head, rest) = run.split(at: limit - taken)
                    state.runs[state.first] = rest
                    run = head
                } else {
                    // Let the taken piece's storage go now, not when the array is next compacted
                    // (64 taken pieces of a MiB each held 64 MiB of a large export).
                    state.runs[state.first] = ByteRun.empty
                    state.first += 1
                }
                taken += run.count
                if joined != nil || runs.count == Self.maximumRuns - 1 {
                    if joined == nil { joined = [] }
                    run.withUnsafeBytes { joined!.append(contentsOf: $0) }
                } else {
                    runs.append(run)
                }
            }
            if let joined { runs.append(ByteRun(joined)) }
            // Drop the taken runs now and then, not at every take (which would shift the rest).
            if state.first == state.runs.count {
                state.runs.removeAll(keepingCapacity: true)
                state.first = 0
            } else if state.first >= 64 {
                state.runs.removeFirst(state.first)
                state.first = 0
            }
            state.buffered -= taken
            guard state.buffered <= capacity, let waiter = state.waiter else { return (runs, nil) }
            state.waiter = nil
            return (runs, waiter)
        }
        waiter?.resume()
        return runs
    }

    /// The provider returned.
    func finish() {
        state.withLock { $0.finished = true }
        wakeup.signal()
    }

    /// The provider threw.
    func fail(_ error: any Error) {
        state.withLock { state in
            if state.failure == nil, state.abandoned == nil { state.failure = "\(error)" }
            state.finished = true
        }
        wakeup.signal()
    }

    /// The owner gives up this transfer: the provider's writes throw from now on, and what is
    /// buffered is dropped.
    func abandon(reason: String) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            if state.abandoned == nil { state.abandoned = reason }
            state.runs = []
            state.first = 0
            state.buffered = 0
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(throwing: SelectionTransferAbandoned(reason: reason))
    }
}

/// Thrown to a provider whose transfer the owner gave up; `reason` says why.
public struct SelectionTransferAbandoned: Error, Equatable, Sendable, CustomStringConvertible {
    public let reason: String
    public var description: String { "the selection transfer was abandoned: \(reason)" }
}

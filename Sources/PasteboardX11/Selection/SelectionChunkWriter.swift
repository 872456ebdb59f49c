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
        var chunks: [[UInt8]] = []
        /// Bytes of `chunks[0]` already taken.
        var headOffset = 0
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

    /// The size of the chunks the owner sends: a write of exactly this size goes to the socket
    /// without being joined to other pieces (a copy).
    public var chunkBytes: Int { wakeAbove }

    init(capacity: Int, wakeAbove: Int, wakeup: X11Wakeup) {
        self.capacity = capacity
        self.wakeAbove = min(wakeAbove, capacity)
        self.wakeup = wakeup
    }

    /// Appends `bytes` to the data; awaits while the requestor is more than a buffer behind.
    public func write(_ bytes: [UInt8]) async throws {
        guard !bytes.isEmpty else { return }
        let (mustWait, wakes) = try state.withLock { state throws(SelectionTransferAbandoned) -> (Bool, Bool) in
            if let reason = state.abandoned { throw SelectionTransferAbandoned(reason: reason) }
            if state.finished { throw SelectionTransferAbandoned(reason: "the provider wrote after it returned") }
            let before = state.buffered
            state.chunks.append(bytes)
            state.buffered += bytes.count
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

    /// Takes up to `limit` buffered bytes (joining or splitting written pieces), resuming a
    /// provider that waited for room.
    func take(upTo limit: Int) -> [UInt8] {
        let (bytes, waiter) = state.withLock { state -> ([UInt8], CheckedContinuation<Void, any Error>?) in
            var bytes: [UInt8] = []
            // A written piece of at least half a chunk (the bridge's loads of up to 1 MiB, the
            // owner's chunks of 1 MiB), or all that is left, is handed over as it is: no copy on
            // the way to the socket, and one short load does not shift every later piece out of
            // line with the chunks. Smaller pieces are joined (the loop below).
            if state.headOffset == 0, let head = state.chunks.first, head.count <= limit,
               head.count >= limit / 2 || state.chunks.count == 1 {
                bytes = state.chunks.removeFirst()
            } else {
                bytes.reserveCapacity(min(limit, state.buffered))
            }
            while bytes.count < limit, !state.chunks.isEmpty {
                let head = state.chunks[0]
                let count = min(limit - bytes.count, head.count - state.headOffset)
                bytes.append(contentsOf: head[state.headOffset..<state.headOffset + count])
                state.headOffset += count
                if state.headOffset == head.count {
                    state.chunks.removeFirst()
                    state.headOffset = 0
                }
            }
            state.buffered -= bytes.count
            guard state.buffered <= capacity, let waiter = state.waiter else { return (bytes, nil) }
            state.waiter = nil
            return (bytes, waiter)
        }
        waiter?.resume()
        return bytes
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
            state.chunks = []
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

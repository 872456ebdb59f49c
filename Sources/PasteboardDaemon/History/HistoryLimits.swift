/// How much the general pasteboard's history keeps. When either bound is passed, the oldest
/// entries leave first; an entry larger than `bytes` on its own is not kept at all.
package struct HistoryLimits: Sendable, Equatable {
    /// The most entries kept (0 keeps no history).
    package var entries: Int
    /// The most bytes of data the entries hold, all together (eager and captured data; a file
    /// representation holds only its path).
    package var bytes: Int
    /// How soon a copy must be replaced by what it replaced, or by nothing, to be transient and
    /// leave (see `TransientCopy`), in seconds; nil: never.
    package var transientSeconds: Double?

    /// Limits of `entries` entries and `bytes` bytes (by default 100 entries, 1 GiB, the
    /// defaults of `history-items` and `history-bytes`), copies replaced within
    /// `transientSeconds` being transient (by default 60, `history-transient-seconds`'s).
    package init(entries: Int = 100, bytes: Int = 1 << 30, transientSeconds: Double? = 60) {
        self.entries = entries
        self.bytes = bytes
        self.transientSeconds = transientSeconds
    }
}

extension DaemonConfiguration {
    /// The history bounds this configuration sets (`historyItems`, `historyBytes`,
    /// `historyTransientSeconds`). A
    /// memory-only daemon keeps its history in memory, so there the byte bound is also at most
    /// `maxInMemorySize`: the 1 GiB default of `history-bytes` is sized for a disk.
    package var historyLimits: HistoryLimits {
        HistoryLimits(entries: historyItems, bytes: stateDirectory == nil ? min(historyBytes, maxInMemorySize) : historyBytes,
                      transientSeconds: historyTransientSeconds)
    }
}

import PasteboardX11

/// Gathers the daemon's chunks (256 KiB) into whole selection chunks (`size`, 1 MiB), so the
/// bytes of an identity export are copied once on their way from the daemon to the X socket:
/// the selection owner hands a whole chunk to the socket as it is, where it would join four
/// smaller pieces (a second copy of every byte; the two copies were 13% of the bridge's cycles
/// in a 256 MiB export).
struct WholeChunks {
    let size: Int
    private var pending: [UInt8] = []

    init(size: Int) {
        self.size = max(1, size)
    }

    /// Adds `bytes`; returns the whole chunks they completed (none, one, or several).
    mutating func add(_ bytes: some Collection<UInt8>) -> [[UInt8]] {
        var whole: [[UInt8]] = []
        var rest = bytes[...]
        while !rest.isEmpty {
            if pending.isEmpty { pending.reserveCapacity(size) }
            let taken = rest.prefix(size - pending.count)
            pending.append(contentsOf: taken)
            rest = rest.dropFirst(taken.count)
            if pending.count == size {
                whole.append(pending)
                pending = []
            }
        }
        return whole
    }

    /// The bytes left at the end (less than a chunk), or none.
    mutating func finish() -> [UInt8] {
        defer { pending = [] }
        return pending
    }
}

import PasteboardX11

/// Gathers the daemon's chunks (256 KiB) into whole selection chunks (`size`, 1 MiB), so the
/// bytes of an identity export are copied once on their way from the daemon to the X socket,
/// and the buffers they were received into are let go at once.
///
/// Why a copy at all: handing the received chunks on as they are (the owner writes runs of
/// any storage, `ByteRun`) kept each one's whole receive buffer (up to 1 MiB) alive until the
/// requestor read it, and the bridge's peak grew from 27 to 85-96 MiB in a 256 MiB export, for
/// no gain in speed (1.04, 1.07 and 0.70 of xclip against 0.97-1.11 with this copy).
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

import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes

/// The most bytes one eager representation of a write may have, and the `too-large` error that
/// refuses a larger one. The limit depends on where the daemon will keep the bytes: a durable
/// daemon keeps large ones on disk, bounded by `max-representation-size` (256 GiB by default,
/// what a disk holds); bytes that must stay in memory are bounded by `max-in-memory-size` too
/// (256 MiB by default), so the daemon's memory does not follow what it is given. The refusal
/// names the limit and its key, and says what to do about it, since the user who meets it
/// typically just copied a large file and needs to know why it did not fit.
struct RepresentationLimit: Sendable, Equatable {
    /// Where the daemon keeps an eager representation's bytes, which decides its limit.
    enum Place: Sendable, Equatable {
        /// On disk (a stored file in `<state>/data`, or in memory and the journal when small):
        /// only `max-representation-size` applies.
        case disk
        /// In memory, because the item is sensitive (`--sensitive`, or a password manager's
        /// marker type): secrets are never written to disk.
        case memoryForSensitiveItem
        /// In memory, because the daemon runs memory-only: it writes nothing to disk.
        case memoryOnlyDaemon

        /// Where a representation of an item goes: in memory when the item is `sensitive` (the
        /// reason a user can act on first: it holds on any daemon), else in memory when
        /// `configuration` names no state directory, else on disk.
        static func of(sensitive: Bool, in configuration: DaemonConfiguration) -> Place {
            if sensitive { return .memoryForSensitiveItem }
            return configuration.stateDirectory == nil ? .memoryOnlyDaemon : .disk
        }
    }

    /// Where the bytes are kept.
    let place: Place
    /// The most bytes allowed.
    let bytes: Int
    /// The configuration key whose value ``bytes`` is: for memory, the smaller of the two.
    let key: String

    /// The limit for bytes kept at `place` under `configuration` (take it from
    /// ``LiveConfiguration/current`` when the write starts, so a reload applies to the next one).
    init(_ place: Place, configuration: DaemonConfiguration) {
        self.place = place
        let disk = (bytes: configuration.maxRepresentationSize, key: ConfigurationKey.maxRepresentationSize.name)
        let memory = (bytes: configuration.maxInMemorySize, key: ConfigurationKey.maxInMemorySize.name)
        // A memory cap above max-representation-size does not raise it: every eager representation stays within that.
        (bytes, key) = place == .disk || disk.bytes < memory.bytes ? disk : memory
    }

    /// Whether a representation of `size` bytes fits.
    func admits(_ size: Int) -> Bool {
        size <= bytes
    }

    /// The `too-large` error for representation `representation` of item `item`, of `type`:
    /// `size` is its size when known (declared, or a file's), nil when more than ``bytes``
    /// arrived of a representation that declared none.
    func refusal(item: Int, representation: Int, type: TypeIdentifier, size: Int?) -> ProtocolError {
        let position = item == 0 ? "representation \(representation)" : "representation \(representation) of item \(item)"
        let (measured, limit) = Self.described(size, against: bytes)
        let amount = measured.map { "is \($0), over" } ?? "is larger than"
        return ProtocolError(.tooLarge, "\(position) (\(type)) \(amount) \(key) (\(limit))\(reason); \(remedy)")
    }

    /// Why the bytes must stay in memory, when that is what bounds them.
    private var reason: String {
        guard key == ConfigurationKey.maxInMemorySize.name else { return "" }
        switch place {
        case .disk: return ""
        case .memoryForSensitiveItem: return ": sensitive items are kept in memory only, never on disk"
        case .memoryOnlyDaemon: return ": the daemon runs --memory-only and writes nothing to disk"
        }
    }

    /// What the user can do instead.
    private var remedy: String {
        place == .disk
            ? "copy it with --lazy (the data then stays in the copying program until pasted) or raise \(key)"
            : "copy it with --lazy or raise \(key)"
    }

    /// `size` and `limit` as people read them ("300.0 MiB"), or in bytes when rounding would
    /// show a size just over the limit as equal to it ("1.0 KiB, over … (1.0 KiB)").
    private static func described(_ size: Int?, against limit: Int) -> (size: String?, limit: String) {
        let (rounded, roundedLimit) = (size.map(ByteCount.describe), ByteCount.describe(limit))
        guard rounded == roundedLimit, let size else { return (rounded, roundedLimit) }
        return ("\(size) bytes", "\(limit) bytes")
    }
}

public import PasteboardTypes
import Synchronization

/// What identifies a desktop offer's content without fetching it all: its mapped types in
/// order and the bytes captured at once (the plain text). Clipboard managers (Klipper, CopyQ,
/// GPaste, wl-clip-persist) take the selection again with the same content when its owner
/// exits; an offer whose fingerprint equals the last one imported is that, not a new copy, so
/// it makes no new change and no history entry, and starts no fight over ownership.
///
/// An offer with nothing captured (an image alone) has no fingerprint: two such offers cannot
/// be told apart without fetching them, so each is imported.
public struct ContentFingerprint: Sendable, Equatable {
    public let types: [TypeIdentifier]
    public let captured: [TypeIdentifier: [UInt8]]

    /// The fingerprint of an offer of `types` whose `captured` representations were read at
    /// once; nil when nothing was captured.
    public init?(types: [TypeIdentifier], captured: [TypeIdentifier: [UInt8]]) {
        guard !captured.isEmpty else { return nil }
        self.types = types
        self.captured = captured
    }
}

/// The fingerprint of the content a selection's importer last put on its pasteboard.
public final class RecentContent: Sendable {
    private let last = Mutex<ContentFingerprint?>(nil)

    public init() {}

    /// Whether `fingerprint` is the content imported last.
    public func isRepeat(_ fingerprint: ContentFingerprint?) -> Bool {
        guard let fingerprint else { return false }
        return last.withLock { $0 == fingerprint }
    }

    /// Remembers `fingerprint` as the content imported last (nil forgets).
    public func remember(_ fingerprint: ContentFingerprint?) {
        last.withLock { $0 = fingerprint }
    }
}

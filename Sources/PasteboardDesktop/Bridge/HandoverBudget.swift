/// How much of an exiting application's copy the clipboard manager reads (SAVE_TARGETS): pure
/// bookkeeping, testable without a display.
///
/// An application hands its data over at exit and waits for the answer, so the manager must
/// neither read without end nor hold more than the daemon will keep: the total defaults to
/// 64 MiB, the daemon's default capture budget per pasteboard (`pasteboardd --capture-budget`),
/// which the saved bytes pass through again. Each representation is bounded by what is left; one
/// that does not fit is skipped (it goes with the application) and smaller ones after it are
/// still read, so a huge TIFF never costs the PNG and the text beside it.
public struct HandoverBudget: Sendable, Equatable {
    /// The default total: 64 MiB.
    public static let defaultTotal = 64 << 20

    /// The most bytes all saved representations may have together.
    public let total: Int
    /// The bytes saved so far.
    public private(set) var used = 0

    /// A budget of `total` bytes (negative counts as none).
    public init(total: Int = HandoverBudget.defaultTotal) {
        self.total = max(0, total)
    }

    /// The most bytes the next representation may have.
    public var limitForNext: Int { max(0, total - used) }

    /// Counts `byteCount` bytes saved (never more than `limitForNext`: the reader stops there).
    public mutating func consume(_ byteCount: Int) {
        used = min(total, used + max(0, byteCount))
    }
}

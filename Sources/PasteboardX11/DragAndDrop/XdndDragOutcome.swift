/// How a drag we started on the desktop ended, as the source learns it: what the bridge reports
/// to the drag session (finished with an operation, cancelled, failed; forbidden when the user
/// released over a target that refused).
public enum XdndDragOutcome: Hashable, Sendable, CustomStringConvertible {
    /// The target said it is done: `.move` only from a version-5 XdndFinished reporting success
    /// with XdndActionMove on a drag that asked for move (drop is not acceptance).
    case finished(XdndOperation)
    /// Released over a target whose last XdndStatus refused the drop.
    case forbidden
    /// Esc, or released where no window speaks XDND: nothing was dropped.
    case cancelled
    /// The drop did not happen or did not succeed: `reason` says which way.
    case failed(XdndDragFailure)

    public var description: String {
        switch self {
        case let .finished(operation): "finished (\(operation))"
        case .forbidden: "forbidden"
        case .cancelled: "cancelled"
        case let .failed(reason): "failed: \(reason)"
        }
    }
}

/// Why a desktop drag failed.
public enum XdndDragFailure: String, Hashable, Sendable, CustomStringConvertible {
    /// A version-5 XdndFinished said the target did not perform the drop.
    case targetFailed
    /// No XdndFinished came within the bounded wait after XdndDrop (the target hung or exited).
    case noFinished
    /// The button was released while a Position awaited its XdndStatus, and none came in time.
    case noStatus

    public var description: String {
        switch self {
        case .targetFailed: "the target reported that the drop failed"
        case .noFinished: "the target did not finish the drop in time"
        case .noStatus: "the target did not answer the drag in time"
        }
    }
}

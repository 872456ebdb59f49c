import Synchronization

/// Cancels a blocking X11 wait from another thread. The connection's waits also end when the
/// calling Swift task is cancelled; this token serves callers that run the connection on a
/// thread of their own (as the bridge will, one thread per display). Waits poll in slices of
/// `X11Socket.pollSlice`, so a cancellation takes effect within that time.
public final class X11Cancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func cancel() { flag.store(true, ordering: .releasing) }

    public var isCancelled: Bool { flag.load(ordering: .acquiring) }
}

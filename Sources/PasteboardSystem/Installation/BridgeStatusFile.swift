/// Where the desktop bridge of the daemon at a socket path keeps its status and its lock:
/// `<socket>.bridge` (JSON, mode 0600) and `<socket>.bridge.lock`, in the socket's directory,
/// which the daemon made its user's own (0700).
///
/// The bridge holds an exclusive `flock` on the lock file for as long as it runs: a second
/// bridge for the same daemon (the daemon's own child and a user unit of the graphical
/// session) waits for it instead of fighting it over the selections, and `pb bridge` tells a
/// running bridge from a stale status by trying the lock (see `StatusFile`).
public struct BridgeStatusFile: Sendable {
    private let file: StatusFile<BridgeStatus>

    /// The files of the daemon listening at `socketPath`.
    public init(socketPath: String) {
        file = StatusFile(path: socketPath + ".bridge", kind: "a bridge status")
    }

    /// The status file's path.
    public var path: String { file.path }
    /// The lock file's path.
    public var lockPath: String { file.lockPath }

    public typealias Failure = StatusFile<BridgeStatus>.Failure

    /// Writes `status` in place of the file (see `StatusFile.write`).
    public func write(_ status: BridgeStatus) throws(Failure) { try file.write(status) }

    /// The status, or nil when there is no file (see `StatusFile.read`).
    public func read() throws(Failure) -> BridgeStatus? { try file.read() }

    /// Whether a bridge holds the lock now (runs).
    public func isHeld() -> Bool { file.isHeld() }

    /// Takes the lock for a bridge, waiting while another bridge holds it, and returns its
    /// descriptor (held until the process exits). `onWait` is called once if it must wait.
    public func lock(onWait: () -> Void = {}) throws(Failure) -> Int32 {
        try file.lock(onWait: onWait)!
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
public import PasteboardSystem
import Synchronization

/// Keeps one link's status and writes it to its file: at once when the state changes, at most
/// every half second for counters and progress; and says what happens, one line each, through `log`.
public final class LinkStatusReporter: Sendable {
    private let status: Mutex<(value: LinkStatus, written: ContinuousClock.Instant?, dirty: Bool)>
    private let file: StatusFile<LinkStatus>?
    /// Whether the file may be written: once its lock is held (the daemon's directory exists).
    private let writing = Mutex(false)
    private let logger: @Sendable (String) -> Void

    /// A reporter writing to `file` (none: only in memory, for tests) and logging through `log`.
    public init(_ status: LinkStatus, file: StatusFile<LinkStatus>?, log: @escaping @Sendable (String) -> Void) {
        self.status = Mutex((status, nil, true))
        self.file = file
        self.logger = log
    }

    /// The status now.
    public var current: LinkStatus { status.withLock { $0.value } }

    /// Changes the status; a change of state is written at once, others within half a second.
    public func update(_ change: (inout LinkStatus) -> Void) {
        let snapshot: LinkStatus? = status.withLock { entry in
            let before = (entry.value.state, entry.value.transfers.count, entry.value.changesSent + entry.value.changesReceived + entry.value.changesSuperseded)
            change(&entry.value)
            entry.dirty = true
            let now = ContinuousClock.now
            // A change of state, a transfer begun or ended, or a change sent or taken is shown at once; counters and
            // progress at most every half second.
            let changes = entry.value.changesSent + entry.value.changesReceived + entry.value.changesSuperseded
            let due = entry.value.state != before.0 || entry.value.transfers.count != before.1 || changes != before.2
                || entry.written.map { now - $0 > .milliseconds(500) } ?? true
            guard due else { return nil }
            entry.written = now
            entry.dirty = false
            return entry.value
        }
        if let snapshot { write(snapshot) }
    }

    /// Moves to `state` (with `error`, when it failed).
    public func set(_ state: LinkStatus.State, error: String? = nil, retryIn: Double? = nil) {
        update { status in
            status.state = state
            status.since = Self.wallSeconds
            if let error { status.lastError = error }
            status.retryIn = retryIn
            if state != .up { status.transfers = [] }
        }
    }

    /// Writes what changed since the last write (called now and then, and at the end).
    public func flush() {
        let snapshot: LinkStatus? = status.withLock { entry in
            guard entry.dirty else { return nil }
            entry.dirty = false
            entry.written = ContinuousClock.now
            return entry.value
        }
        if let snapshot { write(snapshot) }
    }

    func sent(_ bytes: Int) { status.withLock { $0.value.bytesSent += bytes; $0.dirty = true } }
    func received(_ bytes: Int) { status.withLock { $0.value.bytesReceived += bytes; $0.dirty = true } }

    /// Starts writing the file (its lock is held now), with the status as it stands.
    public func startWriting() {
        writing.withLock { $0 = true }
        write(current)
    }

    /// Says `line` (to stderr, or the daemon's log).
    public func log(_ line: String) { logger(line) }

    private func write(_ snapshot: LinkStatus) {
        guard let file, writing.withLock({ $0 }) else { return }
        do throws(StatusFile<LinkStatus>.Failure) {
            try file.write(snapshot)
        } catch {
            logger("cannot write the link status: \(error)")
        }
    }

    static var wallSeconds: Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

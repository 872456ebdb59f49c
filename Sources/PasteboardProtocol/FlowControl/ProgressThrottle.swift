/// Decides when a load's progress is worth reporting: after about 1% of a known total, or
/// 100 ms since the last report, whichever comes first; the final report is always sent.
/// So a load sends at most about 100 reports plus ten a second.
public struct ProgressThrottle: Sendable {
    /// The total byte count, when known.
    public var total: Int?
    private var lastCompleted = 0
    private var lastTime: ContinuousClock.Instant
    private let step: Int?
    private static let interval = Duration.milliseconds(100)

    /// A throttle for a load of `total` bytes (nil when unknown), starting at `now`.
    public init(total: Int?, now: ContinuousClock.Instant = .now) {
        self.total = total
        self.lastTime = now
        self.step = total.map { max(1, $0 / 100) }
    }

    /// Whether to report `completed` now; when true the report counts as sent.
    public mutating func shouldReport(_ completed: Int, now: ContinuousClock.Instant = .now) -> Bool {
        let byBytes = step.map { completed - lastCompleted >= $0 } ?? false
        guard byBytes || now - lastTime >= Self.interval else { return false }
        lastCompleted = completed
        lastTime = now
        return true
    }

    /// The report for `completed` bytes.
    public func report(_ completed: Int) -> ProgressReport {
        ProgressReport(completed: completed, total: total)
    }
}

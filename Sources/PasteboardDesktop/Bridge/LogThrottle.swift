import Synchronization

/// Keeps a flood of alike log lines from filling the daemon's log: a peer that resets the
/// selection in a loop, or asks thousands of times for a conversion that is refused, would
/// otherwise write one line each (8.7 MB in 20 s was seen).
///
/// Lines are alike when they differ only in digits (window ids, change counts, sizes). Of alike
/// lines, the first `burst` in each `window` are written; the rest are counted and summarised
/// in one line (`… and 1234 more like it`) once the window has passed, at the next line logged.
/// Lines of different kinds never hold each other back.
public final class LogThrottle: Sendable {
    private struct Kind {
        var started: ContinuousClock.Instant
        var written: Int
        var suppressed: Int
        var example: String
    }

    /// How many alike lines are written per window.
    public let burst: Int
    /// How long a window lasts.
    public let window: Duration
    /// The most kinds remembered; past it, the ones whose window ended are forgotten.
    static let kindLimit = 256

    private let kinds = Mutex<[String: Kind]>([:])
    private let write: @Sendable (String) -> Void
    private let now: @Sendable () -> ContinuousClock.Instant

    /// Throttles lines on their way to `write`; `now` is the clock (a test's own).
    public init(burst: Int = 5, window: Duration = .seconds(10), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }, write: @escaping @Sendable (String) -> Void) {
        self.burst = max(1, burst)
        self.window = window
        self.now = now
        self.write = write
    }

    /// Logs `line` unless too many alike lines were logged in this window.
    public func log(_ line: String) {
        let key = String(line.unicodeScalars.filter { !("0"..."9").contains($0) }.prefix(120))
        let instant = now()
        let lines = kinds.withLock { kinds -> [String] in
            var lines = summaries(of: &kinds, at: instant, except: key)
            var kind = kinds[key] ?? Kind(started: instant, written: 0, suppressed: 0, example: line)
            if instant - kind.started >= window {
                if let summary = Self.summary(kind) { lines.append(summary) }
                kind = Kind(started: instant, written: 0, suppressed: 0, example: line)
            }
            if kind.written < burst {
                kind.written += 1
                lines.append(line)
            } else {
                kind.suppressed += 1
            }
            kinds[key] = kind
            return lines
        }
        for line in lines { write(line) }
    }

    /// The summaries of the kinds (but `key`) whose window ended with lines held back; those
    /// kinds start over. Forgets ended kinds when too many are remembered.
    private func summaries(of kinds: inout [String: Kind], at instant: ContinuousClock.Instant, except key: String) -> [String] {
        var lines: [String] = []
        for (other, kind) in kinds where other != key && kind.suppressed > 0 && instant - kind.started >= window {
            if let summary = Self.summary(kind) { lines.append(summary) }
            kinds[other] = Kind(started: instant, written: kind.written, suppressed: 0, example: kind.example)
        }
        if kinds.count >= Self.kindLimit {
            kinds = kinds.filter { instant - $0.value.started < window || $0.value.suppressed > 0 }
            if kinds.count >= Self.kindLimit { kinds.removeAll() }
        }
        return lines
    }

    private static func summary(_ kind: Kind) -> String? {
        guard kind.suppressed > 0 else { return nil }
        return "… and \(kind.suppressed) more like: \(kind.example)"
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PasteboardSystem

/// When a pasteboard's content expires (`pb copy --expire`): a wall-clock time, kept with the
/// content in its archive and journal record, so a daemon that restarts still clears the
/// content on time, or at once when its time passed while the daemon was not running.
///
/// Held as whole milliseconds since 1970-01-01 00:00 UTC, so a deadline read from a file is an
/// integer, and every conversion of it is range-checked (`remaining`).
struct ExpiryDeadline: Sendable, Equatable {
    /// Milliseconds since 1970-01-01 00:00 UTC (any value: one read from a file is not trusted).
    let millisecondsSinceEpoch: Int

    /// The longest time an expiry waits: the protocol's bound on `expire`, 1e9 seconds. A
    /// deadline further off (a clock set back, a damaged file) waits this long.
    static let longestMilliseconds = Int64(SecondsLimit.maximum) * 1000

    init(millisecondsSinceEpoch: Int) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    /// `seconds` after `now`: seconds outside 0...1e9 (or NaN) are clamped into it, so no
    /// value converts to an integer out of range.
    init(after seconds: Double, now: Int = ExpiryDeadline.now) {
        let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), Double(Self.longestMilliseconds) / 1000)
        let milliseconds = Int((bounded * 1000).rounded(.up))
        let (sum, overflow) = now.addingReportingOverflow(milliseconds)
        millisecondsSinceEpoch = overflow ? Int.max : sum
    }

    /// Milliseconds left at `now`: 0 once the deadline passed, at most `longestMilliseconds`.
    func remainingMilliseconds(now: Int = ExpiryDeadline.now) -> Int64 {
        let (difference, overflow) = millisecondsSinceEpoch.subtractingReportingOverflow(now)
        if overflow { return millisecondsSinceEpoch > now ? Self.longestMilliseconds : 0 }
        return Int64(min(max(difference, 0), Int(Self.longestMilliseconds)))
    }

    /// The time left at `now` (see `remainingMilliseconds`).
    func remaining(now: Int = ExpiryDeadline.now) -> Duration {
        .milliseconds(remainingMilliseconds(now: now))
    }

    /// Whether the deadline has passed at `now`.
    func hasPassed(now: Int = ExpiryDeadline.now) -> Bool {
        remainingMilliseconds(now: now) == 0
    }

    /// The wall-clock time now, in milliseconds since 1970-01-01 00:00 UTC.
    static var now: Int {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int(time.tv_sec) * 1000 + Int(time.tv_nsec) / 1_000_000
    }
}

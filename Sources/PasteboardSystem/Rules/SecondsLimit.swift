/// The range every span of seconds from outside the process must lie in: a `write`'s `expire`
/// and a `drag`'s `timeout` on the wire, `pb copy --expire`, `pb drag --timeout`, and
/// pasteboardd's `--handshake-timeout`, `--idle-timeout` and `--session-timeout` (options and
/// configuration file alike).
///
/// Seconds arrive as a `Double` and later become a `Duration` or a count of milliseconds;
/// converting 1e19 or infinity traps, so one request or option could end the process. They are
/// checked once, where they enter, against these bounds; ``duration(_:)`` clamps as well, so a
/// value that skipped the check still cannot trap.
public enum SecondsLimit {
    /// The longest span accepted: 1,000,000,000 seconds (about 31.7 years).
    public static let maximum: Double = 1_000_000_000

    /// Why `seconds` is not a usable span (more than 0, at most ``maximum``), as the end of a
    /// sentence that starts with the field's or option's name; nil when it is usable.
    public static func validationFailure(_ seconds: Double) -> String? {
        guard seconds > 0, seconds <= maximum else {
            return "must be more than 0 and at most \(Int(maximum)) seconds, not \(describe(seconds))"
        }
        return nil
    }

    /// `seconds` as a `Duration`, to the millisecond (rounded up, so a positive span never
    /// becomes 0). Clamped into 0...``maximum``, NaN counting as 0.
    public static func duration(_ seconds: Double) -> Duration {
        let clamped = seconds > 0 ? min(seconds, maximum) : 0
        return .milliseconds(Int64((clamped * 1000).rounded(.up)))
    }

    /// `seconds` for a message: "10", "0.5", "1e+19", "inf".
    public static func describe(_ seconds: Double) -> String {
        if seconds.isFinite, seconds == seconds.rounded(), abs(seconds) < 1e15 { return String(Int64(seconds)) }
        return String(seconds)
    }
}

/// How long the bridge waits before it connects again after the display server or the daemon
/// went away: short at first (a display server restarting is back within a second), doubling
/// up to `maximum`, and short again after a connection that lasted.
public struct RetryDelay: Sendable, Equatable {
    public var initial: Duration
    public var maximum: Duration
    /// A connection that lasted this long resets the delay to `initial`.
    public var resetAfter: Duration
    public private(set) var next: Duration

    public init(initial: Duration = .milliseconds(250), maximum: Duration = .seconds(5), resetAfter: Duration = .seconds(30)) {
        self.initial = initial
        self.maximum = max(maximum, initial)
        self.resetAfter = resetAfter
        next = initial
    }

    /// The delay after a connection that lasted `lasted`, and the one after it grown.
    public mutating func delay(afterLasting lasted: Duration) -> Duration {
        if lasted >= resetAfter { next = initial }
        let delay = next
        next = min(next * 2, maximum)
        return delay
    }
}

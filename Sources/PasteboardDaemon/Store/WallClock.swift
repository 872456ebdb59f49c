/// The wall clock the store reads and waits on for what is kept in wall-clock time: expiries
/// (`pb copy --expire`, stored with the content) and the history's times (a transient copy's
/// window). `system` is the real one; a test gives its own, which it moves forward instead of
/// waiting.
package struct WallClock: Sendable {
    /// Milliseconds since 1970-01-01 00:00 UTC, now.
    package var now: @Sendable () -> Int
    /// Waits until this clock reads `deadline` (milliseconds since the epoch, at most
    /// `ExpiryDeadline.longestMilliseconds` from now); throws when the task is cancelled.
    package var sleep: @Sendable (_ deadline: Int) async throws -> Void

    package init(now: @escaping @Sendable () -> Int, sleep: @escaping @Sendable (_ deadline: Int) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// CLOCK_REALTIME, and a task sleep for the time left.
    package static let system = WallClock(
        now: { ExpiryDeadline.now },
        sleep: { deadline in try await Task.sleep(for: ExpiryDeadline(millisecondsSinceEpoch: deadline).remaining()) }
    )

    /// The time now in seconds since the epoch (the history's unit).
    var seconds: Double { Double(now()) / 1000 }
}

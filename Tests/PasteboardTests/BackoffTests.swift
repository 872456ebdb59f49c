import Pasteboard
import Testing

/// The delays a live source waits between attempts to reach a daemon that went away.
@Suite struct BackoffTests {
    @Test func delaysDoubleFromTheFirstUpToTheLongest() {
        let backoff = LiveSource.Backoff.standard
        let delays = (1...8).map { backoff.delay(afterFailures: $0) }
        #expect(delays == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800),
                           .milliseconds(1600), .milliseconds(3200), .seconds(5), .seconds(5)])
    }

    @Test func aLongestDelayShorterThanTheFirstCapsEveryDelay() {
        let backoff = LiveSource.Backoff(initial: .seconds(2), maximum: .seconds(1))
        #expect(backoff.delay(afterFailures: 1) == .seconds(1))
        #expect(backoff.delay(afterFailures: 100) == .seconds(1))
    }
}

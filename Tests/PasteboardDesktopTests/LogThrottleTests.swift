import PasteboardDesktop
import Synchronization
import XCTest

final class LogThrottleTests: XCTestCase {
    /// A clock the test moves, and the lines written.
    private final class Fixture: Sendable {
        let clock = Mutex(ContinuousClock.now)
        let lines = Mutex<[String]>([])
        func advance(_ duration: Duration) { clock.withLock { $0 += duration } }
        var written: [String] { lines.withLock { $0 } }
        func throttle() -> LogThrottle {
            LogThrottle(burst: 3, window: .seconds(10), now: { self.clock.withLock { $0 } }, write: { line in self.lines.withLock { $0.append(line) } })
        }
    }

    func testAFloodOfAlikeLinesIsCutToTheBurstAndSummarisedAfterTheWindow() {
        let fixture = Fixture()
        let throttle = fixture.throttle()
        for window in 0..<1000 { throttle.log("CLIPBOARD: skipped the offer of window \(window)") }
        XCTAssertEqual(fixture.written, (0..<3).map { "CLIPBOARD: skipped the offer of window \($0)" })
        fixture.advance(.seconds(11))
        throttle.log("CLIPBOARD: skipped the offer of window 5000")
        XCTAssertEqual(fixture.written.count, 5)
        XCTAssertEqual(fixture.written[3], "… and 997 more like: CLIPBOARD: skipped the offer of window 0")
        XCTAssertEqual(fixture.written[4], "CLIPBOARD: skipped the offer of window 5000")
    }

    func testLinesOfAnotherKindAreNotHeldBackAndSummariesComeWithThem() {
        let fixture = Fixture()
        let throttle = fixture.throttle()
        for _ in 0..<10 { throttle.log("refused UTF8_STRING: too many") }
        throttle.log("bridging the X11 display :1")
        XCTAssertEqual(fixture.written.last, "bridging the X11 display :1")
        fixture.advance(.seconds(10))
        throttle.log("imported a copy as change 7")
        XCTAssertEqual(fixture.written.suffix(2), ["… and 7 more like: refused UTF8_STRING: too many", "imported a copy as change 7"])
    }

    func testEveryKindIsWrittenEvenPastTheKindsRemembered() {
        let fixture = Fixture()
        let throttle = fixture.throttle()
        for kind in 0..<10_000 { throttle.log(String(repeating: "x", count: kind % 97) + "kind \(UnicodeScalar(UInt8(65 + kind % 26)))\(kind / 26 % 26)") }
        // Every distinct kind is written once at least: nothing of another kind is suppressed.
        XCTAssertGreaterThan(fixture.written.count, 2000)
    }
}

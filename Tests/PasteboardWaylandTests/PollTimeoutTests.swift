@testable import PasteboardWayland
import XCTest

/// Timeouts reach poll(2) as milliseconds in an Int32: any Duration a caller passes converts
/// without trapping (rounded up, clamped at both ends).
final class PollTimeoutTests: XCTestCase {
    func testAnyTimeoutConvertsToPollsMillisecondsWithoutTrapping() {
        XCTAssertEqual(Duration.milliseconds(1500).milliseconds, 1500)
        XCTAssertEqual(Duration.microseconds(1).milliseconds, 1, "a partial millisecond rounds up")
        XCTAssertEqual(Duration.zero.milliseconds, 0)
        XCTAssertEqual(Duration.seconds(-5).milliseconds, 0)
        XCTAssertEqual(Duration.seconds(3_000_000).milliseconds, Int32.max)
        XCTAssertEqual(Duration.seconds(Int64.max).milliseconds, Int32.max, "seconds × 1000 would overflow")
    }
}

import Foundation
import XCTest

/// A Ctrl-C at any moment after a command starts is acted on: `pb copy --lazy` (which serves
/// until interrupted) interrupted within its first tenth of a second ends, every time, where it
/// used to keep serving until a second SIGINT.
final class EarlySignalTests: IntegrationTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    func testALazyCopyInterruptedEarlyEndsEveryTime() throws {
        let file = try randomFile("lazy", size: 4096)
        var kept: [String] = []
        for round in 0..<30 {
            let copy = try startPB("copy", "--lazy", file)
            // 0 to 145 ms: before, during and after the first copy and the first wait for a signal.
            usleep(useconds_t(round % 30) * 5_000)
            copy.signal(SIGINT)
            if copy.waitForExit(timeout: 10) == nil {
                kept.append("round \(round) (SIGINT after \((round % 30) * 5) ms)")
                copy.signal(SIGKILL)
            }
        }
        XCTAssertEqual(kept, [], "pb copy --lazy kept serving after one SIGINT")
    }

    func testSIGTERMEarlyEndsALazyCopyToo() throws {
        let file = try randomFile("lazy", size: 4096)
        for round in 0..<10 {
            let copy = try startPB("copy", "--lazy", file)
            usleep(useconds_t(round) * 12_000)
            copy.signal(SIGTERM)
            XCTAssertNotNil(copy.waitForExit(timeout: 10), "round \(round): pb copy --lazy kept serving after SIGTERM")
        }
    }
}

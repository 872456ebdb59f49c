@testable import PasteboardDesktop
import Synchronization
import XCTest

/// The primary selection's debounce: an offer is imported only if it is still the newest once
/// the quiet time has passed.
final class OfferDebounceTests: XCTestCase {
    func testAnOfferStillTheNewestAfterTheQuietTimeSettles() async throws {
        let settled = try await OfferDebounce(quiet: .milliseconds(1)).settles(7) { 7 }
        XCTAssertTrue(settled)
    }

    func testAnOfferReplacedDuringTheQuietTimeDoesNotSettle() async throws {
        let current = Mutex<UInt64?>(7)
        // The newer offer arrives while the debounce waits.
        let settled = try await OfferDebounce(quiet: .milliseconds(1)).settles(7) {
            current.withLock { $0 = 8 }
            return current.withLock { $0 }
        }
        XCTAssertFalse(settled)
    }

    func testWithoutADebounceOnlyTheNewestOfferIsImported() async throws {
        let debounce = OfferDebounce(quiet: nil)
        let newest = try await debounce.settles(8) { 8 }
        let stale = try await debounce.settles(7) { 8 }
        let cleared = try await debounce.settles(7) { nil }
        XCTAssertTrue(newest)
        XCTAssertFalse(stale, "a newer one is in the queue")
        XCTAssertFalse(cleared, "the selection was cleared meanwhile")
    }

    func testCancellingTheWaitThrows() async {
        let task = Task { try await OfferDebounce(quiet: .seconds(3600)).settles(1) { 1 } }
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("the wait went on")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }
}

@testable import PasteboardDesktop
import XCTest

/// When an exporter offers an import's kept content again after the desktop owner left: only
/// while the pasteboard still holds that import, also when the owner's leaving is heard before
/// the import reaches the exporter's watch.
final class VacancyFollowerTests: XCTestCase {
    func testTheOwnerLeavingAfterTheImportOnThePasteboardOffersItNow() {
        var follower = VacancyFollower()
        XCTAssertEqual(follower.ownerLeft(afterImport: 5, current: 5), 5)
        XCTAssertNil(follower.waitingFor)
    }

    func testAPasteboardThatMovedOnOffersNothing() {
        var follower = VacancyFollower()
        XCTAssertNil(follower.ownerLeft(afterImport: 5, current: 6))
        XCTAssertNil(follower.waitingFor)
        XCTAssertFalse(follower.reached(7))
    }

    func testAnImportNotYetSeenIsOfferedWhenTheWatchReachesIt() {
        var follower = VacancyFollower()
        XCTAssertNil(follower.ownerLeft(afterImport: 5, current: 4))
        XCTAssertEqual(follower.waitingFor, 5)
        XCTAssertTrue(follower.reached(5))
        XCTAssertFalse(follower.reached(5), "offered once")
    }

    func testAWatchThatSkipsPastTheImportForgetsIt() {
        var follower = VacancyFollower()
        XCTAssertNil(follower.ownerLeft(afterImport: 5, current: nil))
        XCTAssertFalse(follower.reached(6))
        XCTAssertNil(follower.waitingFor)
    }
}

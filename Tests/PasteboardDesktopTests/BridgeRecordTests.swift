import PasteboardDesktop
import PasteboardTypes
import XCTest

/// The records that keep the bridge's two directions from echoing each other, and its waits.
final class BridgeRecordTests: XCTestCase {
    func testAChangeReportedDuringTheImportsWriteIsKnownAsOwnOnceTheWriteEnds() async {
        let echo = BridgeEcho()
        await echo.beginImport()
        // The exporter hears of change 5 before the importer's write has its answer.
        async let answer = echo.isOwnChange(5)
        await echo.endImport(changeCount: 5)
        let own = await answer
        XCTAssertTrue(own)
        let foreign = await echo.isOwnChange(6)
        XCTAssertFalse(foreign)
    }

    func testAFailedImportMarksNothing() async {
        let echo = BridgeEcho()
        await echo.beginImport()
        await echo.endImport(changeCount: nil)
        let own = await echo.isOwnChange(1)
        XCTAssertFalse(own)
    }

    func testTheSameTextAndTypesAreARepeatButNotAnUncapturedOffer() {
        let recent = RecentContent()
        let text = ContentFingerprint(types: [.utf8PlainText], captured: [.utf8PlainText: Array("hello".utf8)])
        XCTAssertFalse(recent.isRepeat(text))
        recent.remember(text)
        XCTAssertTrue(recent.isRepeat(ContentFingerprint(types: [.utf8PlainText], captured: [.utf8PlainText: Array("hello".utf8)])))
        XCTAssertFalse(recent.isRepeat(ContentFingerprint(types: [.utf8PlainText], captured: [.utf8PlainText: Array("other".utf8)])))
        XCTAssertNil(ContentFingerprint(types: [TypeIdentifier("public.png")], captured: [:]), "an image alone cannot be told from another")
        XCTAssertFalse(recent.isRepeat(nil))
    }

    func testTheRetryDelayDoublesToItsMaximumAndResetsAfterALastingConnection() {
        var retry = RetryDelay(initial: .milliseconds(250), maximum: .seconds(1), resetAfter: .seconds(30))
        XCTAssertEqual(retry.delay(afterLasting: .zero), .milliseconds(250))
        XCTAssertEqual(retry.delay(afterLasting: .zero), .milliseconds(500))
        XCTAssertEqual(retry.delay(afterLasting: .zero), .seconds(1))
        XCTAssertEqual(retry.delay(afterLasting: .zero), .seconds(1))
        XCTAssertEqual(retry.delay(afterLasting: .seconds(31)), .milliseconds(250))
    }
}

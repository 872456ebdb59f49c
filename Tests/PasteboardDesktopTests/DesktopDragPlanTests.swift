import PasteboardDesktop
import PasteboardDesktopTypes
import PasteboardTypes
import XCTest

/// What a drag handle offers the desktop for a session's items.
final class DesktopDragPlanTests: XCTestCase {
    private let mapping = DesktopTypeMapping(registry: .builtIn)

    func testTheFirstItemsTypesAreOfferedAndTheURIListGathersEveryItemsURL() {
        let image: [TypeIdentifier] = [.png, .utf8PlainText, .fileURL]
        let plan = DesktopDragPlan(itemTypes: [image, [.utf8PlainText], image], mapping: mapping)
        XCTAssertEqual(plan.names.first, "image/png")
        XCTAssertEqual(plan.target(named: "image/png")?.items, [0])
        XCTAssertEqual(plan.target(named: "text/plain;charset=utf-8")?.items, [0], "text is the first item's")
        XCTAssertEqual(plan.target(named: "UTF8_STRING")?.items, [0], "GTK's text names are offered as for the clipboard")
        let list = plan.target(named: "text/uri-list")
        XCTAssertEqual(list?.items, [0, 2], "every item with a URL, in drag order, and only those")
        XCTAssertEqual(list?.isLineList, true)
        XCTAssertNil(plan.target(named: "x-special/gnome-copied-files"), "a clipboard type, not a drag's")
    }

    func testFilesOfLaterItemsAreOfferedWhenTheFirstHasNone() {
        let plan = DesktopDragPlan(itemTypes: [[.utf8PlainText], [.fileURL]], mapping: mapping)
        XCTAssertEqual(plan.names.last, "text/uri-list")
        XCTAssertEqual(plan.target(named: "text/uri-list")?.items, [1])
        XCTAssertEqual(plan.target(named: "text/plain;charset=utf-8")?.isLineList, false)
    }

    func testNoItemsOfferNothing() {
        XCTAssertEqual(DesktopDragPlan(itemTypes: [], mapping: mapping).names, [])
    }
}

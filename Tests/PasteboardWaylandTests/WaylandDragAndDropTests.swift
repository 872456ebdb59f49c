@testable import PasteboardWayland
import XCTest

/// The Wayland side of desktop drag and drop without a compositor (issue 42): what the
/// version-3 data-device events mean for a drag we start, and what a drop zone answers.
final class WaylandDragAndDropTests: XCTestCase {
    func testAMoveIsFinishedOnlyByDndFinishedWithTheMoveAction() {
        var drag = WaylandDragSource(offering: [.copy, .move, .ask])
        XCTAssertEqual(drag.offered, [.copy, .move], "ask is never offered")
        drag.target("image/png")
        drag.chose(2)
        drag.dropPerformed()
        XCTAssertEqual(drag.phase, .dropped)
        XCTAssertNil(drag.outcome, "a drop is not acceptance")
        drag.finished()
        XCTAssertEqual(drag.outcome, .finished(.move))
    }

    func testADropThatIsNeverFinishedFailsAndNeverMoves() {
        var drag = WaylandDragSource(offering: [.copy, .move])
        drag.target("text/uri-list")
        drag.chose(2)
        drag.dropPerformed()
        drag.cancelled()
        XCTAssertEqual(drag.outcome, .failed)
    }

    func testCancelEscapeAndForeignActions() {
        var cancelled = WaylandDragSource(offering: [.copy])
        cancelled.target(nil)
        cancelled.cancelled()
        XCTAssertEqual(cancelled.outcome, .cancelled)

        var escaped = WaylandDragSource(offering: [.copy])
        escaped.escape()
        escaped.dropPerformed()
        escaped.finished()
        XCTAssertEqual(escaped.outcome, .cancelled, "events after the end change nothing")

        var copy = WaylandDragSource(offering: [.copy])
        copy.chose(2)  // move, which this drag does not offer: ignored
        copy.chose(0xF0 | 1)  // unknown bits dropped: copy
        copy.dropPerformed()
        copy.finished()
        XCTAssertEqual(copy.outcome, .finished(.copy))
        XCTAssertEqual(DragActions(wire: 0xFFFF_FFFF), [.copy, .move, .ask])
    }

    func testADropZoneAcceptsTheNegotiatedTypeReceivesItOnDropAndFinishes() {
        var zone = WaylandDropTarget(takes: [.copy, .move]) { types in types.first { $0 == "image/png" || $0 == "text/uri-list" } }
        zone.dataOffer(0xff00_0001)
        for type in ["text/plain;charset=utf-8", "text/uri-list", "image/png"] { zone.offered(type, on: 0xff00_0001) }
        zone.offered("ignored/other-offer", on: 0xff00_0002)
        zone.sourceActions(3, on: 0xff00_0001)
        XCTAssertEqual(zone.enter(serial: 7, offer: 0xff00_0001), [.accept(serial: 7, type: "text/uri-list"), .setActions([.copy, .move], preferred: .move)])
        zone.chose(2, on: 0xff00_0001)
        XCTAssertEqual(zone.drop(), [.receive(type: "text/uri-list")])
        XCTAssertEqual(zone.leave(), [], "a leave while receiving does not drop the offer")
        let (requests, performed) = zone.received(success: true)
        XCTAssertEqual(requests, [.finish, .destroy])
        XCTAssertEqual(performed, .move)
    }

    func testADropZoneRefusesWhatItCannotTakeAndForgetsAnOfferThatLeaves() {
        var zone = WaylandDropTarget(takes: [.copy]) { types in types.contains("image/png") ? "image/png" : nil }
        zone.dataOffer(0xff00_0003)
        zone.offered("application/x-unknown", on: 0xff00_0003)
        XCTAssertEqual(zone.enter(serial: 9, offer: 0xff00_0003), [.accept(serial: 9, type: nil), .setActions([], preferred: [])])
        XCTAssertEqual(zone.drop(), [.destroy], "a drop of nothing accepted is only let go of")

        var moveOnly = WaylandDropTarget(takes: [.copy]) { $0.first }
        moveOnly.dataOffer(5)
        moveOnly.offered("image/png", on: 5)
        moveOnly.sourceActions(2, on: 5)
        XCTAssertEqual(moveOnly.enter(serial: 1, offer: 5), [.accept(serial: 1, type: nil), .setActions([], preferred: [])],
                       "a source that only moves, to a zone that only copies: refused")
        XCTAssertEqual(moveOnly.leave(), [.destroy])
        XCTAssertNil(moveOnly.offer)
    }

    func testAnOffersTypesAreBounded() {
        var zone = WaylandDropTarget(takes: [.copy]) { _ in nil }
        zone.dataOffer(1)
        for index in 0..<5000 { zone.offered("type/\(index)", on: 1) }
        zone.offered(String(repeating: "x", count: 300), on: 1)
        XCTAssertEqual(zone.types.count, WaylandDropTarget.typeLimit)
        let failed = zone.received(success: true)
        XCTAssertEqual(failed.requests, [], "nothing to finish before a drop")
    }
}

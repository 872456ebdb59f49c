import PasteboardX11
import XCTest

/// The receiving side of XDND without a display: types from the Enter or the XdndTypeList
/// (bounded), each Position answered by negotiation, the drop fetched and finished, one source
/// at a time; and a source session and a target session talking to each other.
final class XdndTargetSessionTests: XCTestCase {
    private typealias F = XdndFixtures
    private let zone = WindowID(0x90_0001)

    /// A drop zone that takes PNG, then plain text, in that order of preference.
    private func session(allowing operations: Set<XdndOperation> = [.copy, .move]) -> XdndTargetSession {
        XdndTargetSession(window: zone, atoms: F.atoms, allowedOperations: operations) { offered in
            [F.png, F.plainText].first(where: offered.contains)
        }
    }

    private func enter(_ types: [Atom], version: XdndVersion = F.v5, from source: WindowID = F.source) -> XdndMessage {
        .enter(XdndEnter(source: source, version: version, offering: types))
    }

    private func position(_ action: Atom = F.copy, from source: WindowID = F.source, time: X11Timestamp = 50) -> XdndMessage {
        .position(XdndPosition(source: source, point: F.point(100, 100), time: time, action: action))
    }

    private func status(accepts: Bool, action: Atom = .none, to source: WindowID = F.source) -> XdndTargetStep {
        .send(XdndEnvelope(window: source, message: .status(XdndStatus(target: zone, accepts: accepts, action: action))))
    }

    private func finished(succeeded: Bool, action: Atom = .none, to source: WindowID = F.source) -> XdndTargetStep {
        .send(XdndEnvelope(window: source, message: .finished(XdndFinished(target: zone, succeeded: succeeded, action: action))))
    }

    // MARK: - Whole drops

    func testACopyDropIsAcceptedFetchedAndFinished() {
        var zone = session()
        XCTAssertEqual(zone.received(enter([F.html, F.plainText, F.png])), [])
        XCTAssertEqual(zone.drag?.chosenType, F.png, "the zone's first preference that is offered (DESIGN.md's fidelity order)")
        XCTAssertEqual(zone.received(position(F.copy)), [status(accepts: true, action: F.copy)])
        XCTAssertEqual(zone.received(.drop(XdndDrop(source: F.source, time: 77))), [.fetch(type: F.png, time: 77, operation: .copy)])
        XCTAssertEqual(zone.drag?.phase, .fetching)
        XCTAssertEqual(zone.fetchEnded(performed: .copy), [finished(succeeded: true, action: F.copy)])
        XCTAssertNil(zone.drag)
        XCTAssertEqual(zone.fetchEnded(performed: .copy), [], "one Finished per drop")
    }

    func testTheActionIsTheRequestedOneWhenAllowedElseCopy() {
        func answer(requesting action: Atom, allowing operations: Set<XdndOperation>) -> [XdndTargetStep] {
            var zone = session(allowing: operations)
            _ = zone.received(enter([F.png]))
            return zone.received(position(action))
        }
        XCTAssertEqual(answer(requesting: F.move, allowing: [.copy, .move]), [status(accepts: true, action: F.move)])
        XCTAssertEqual(answer(requesting: F.move, allowing: [.copy]), [status(accepts: true, action: F.copy)])
        XCTAssertEqual(answer(requesting: F.copy, allowing: [.copy, .move]), [status(accepts: true, action: F.copy)])
        XCTAssertEqual(answer(requesting: F.copy, allowing: [.move]), [status(accepts: false)], "copy asked, move is no answer to it")
        XCTAssertEqual(answer(requesting: F.atoms.actionAsk, allowing: [.copy, .move]), [status(accepts: true, action: F.copy)])
        XCTAssertEqual(answer(requesting: Atom(12345), allowing: [.copy]), [status(accepts: true, action: F.copy)])
        XCTAssertEqual(answer(requesting: F.copy, allowing: []), [status(accepts: false)])
    }

    func testAMoveDropIsFinishedWithTheOperationPerformed() {
        var zone = session()
        _ = zone.received(enter([F.png]))
        _ = zone.received(position(F.move))
        XCTAssertEqual(zone.received(.drop(XdndDrop(source: F.source, time: 9))), [.fetch(type: F.png, time: 9, operation: .move)])
        XCTAssertEqual(zone.fetchEnded(performed: .move), [finished(succeeded: true, action: F.move)])
    }

    func testAFailedFetchIsFinishedWithoutSuccess() {
        var zone = session()
        _ = zone.received(enter([F.png]))
        _ = zone.received(position(F.move))
        _ = zone.received(.drop(XdndDrop(source: F.source, time: 9)))
        XCTAssertEqual(zone.fetchEnded(performed: nil), [finished(succeeded: false)])
        XCTAssertNil(zone.drag)
    }

    func testNoAcceptableTypeRefusesAndItsDropIsFinishedAtOnce() {
        var zone = session()
        _ = zone.received(enter([F.html, F.uriList]))
        XCTAssertNil(zone.drag?.chosenType)
        XCTAssertEqual(zone.received(position(F.copy)), [status(accepts: false)])
        XCTAssertEqual(zone.received(.drop(XdndDrop(source: F.source, time: 9))), [finished(succeeded: false)])
        XCTAssertNil(zone.drag)
    }

    func testADropBeforeAnyPositionIsRefused() {
        var zone = session()
        _ = zone.received(enter([F.png]))
        XCTAssertEqual(zone.received(.drop(XdndDrop(source: F.source, time: 9))), [finished(succeeded: false)])
    }

    func testAVersion3SourceGetsAFinishedWithReservedZeros() {
        var zone = session()
        _ = zone.received(enter([F.png], version: F.v3))
        _ = zone.received(position(F.copy))
        _ = zone.received(.drop(XdndDrop(source: F.source, time: 9)))
        XCTAssertEqual(zone.fetchEnded(performed: .copy), [finished(succeeded: false)], "data.l[1] and l[2] are reserved before version 5")
    }

    func testANegotiationThatNamesATypeNotOfferedIsNotBelieved() {
        var zone = XdndTargetSession(window: zone, atoms: F.atoms, allowedOperations: [.copy]) { _ in F.png }
        _ = zone.received(enter([F.html]))
        XCTAssertNil(zone.drag?.chosenType)
        XCTAssertEqual(zone.received(position()), [status(accepts: false)])
    }

    // MARK: - Type lists

    func testMoreThanThreeTypesAreReadFromTheTypeListBounded() {
        var zone = session()
        XCTAssertEqual(zone.received(enter([F.html, F.uriList, Atom(600), F.png])), [.readTypeList(source: F.source)])
        XCTAssertEqual(zone.drag?.phase, .awaitingTypeList)
        XCTAssertEqual(zone.received(position(F.copy)), [status(accepts: false)], "nothing is accepted before the list is read")
        XCTAssertEqual(zone.typeListRead([F.png], from: F.secondTarget), [], "another window's list is no answer")
        // A peer's list of 3000 atoms: at most 1024 are kept (PNG, at 2000, is beyond them).
        let long = [Atom.none] + (1000..<2000).map { Atom($0) } + [F.plainText] + (2000..<3998).map { Atom($0) } + [F.png]
        XCTAssertEqual(zone.typeListRead(long, from: F.source), [status(accepts: true, action: F.copy)], "the earlier Position answered again")
        XCTAssertEqual(zone.drag?.types.count, XdndTargetSession.maximumTypeCount)
        XCTAssertEqual(zone.drag?.types.first, Atom(1000), "None left out")
        XCTAssertEqual(zone.drag?.chosenType, F.plainText)
        XCTAssertEqual(zone.typeListRead([F.png], from: F.source), [], "read once")
    }

    func testAMissingTypeListFallsBackToTheEntersTypes() {
        var zone = session()
        _ = zone.received(enter([F.html, F.png, F.uriList, Atom(600)]))
        XCTAssertEqual(zone.typeListRead(nil, from: F.source), [])
        XCTAssertEqual(zone.drag?.types, [F.html, F.png, F.uriList])
        XCTAssertEqual(zone.drag?.chosenType, F.png)
    }

    func testADropWhileTheTypeListIsUnreadIsRefused() {
        var zone = session()
        _ = zone.received(enter([F.html, F.png, F.uriList, Atom(600)]))
        XCTAssertEqual(zone.received(.drop(XdndDrop(source: F.source, time: 9))), [finished(succeeded: false)])
        XCTAssertNil(zone.drag)
    }

    // MARK: - One source at a time

    func testLeaveForgetsTheDrag() {
        var zone = session()
        _ = zone.received(enter([F.png]))
        _ = zone.received(position())
        XCTAssertEqual(zone.received(.leave(XdndLeave(source: WindowID(0x5555)))), [], "another source's Leave")
        XCTAssertNotNil(zone.drag)
        XCTAssertEqual(zone.received(.leave(XdndLeave(source: F.source))), [])
        XCTAssertNil(zone.drag)
        XCTAssertEqual(zone.received(position()), [], "no drag, no answer")
        XCTAssertEqual(zone.received(.drop(XdndDrop(source: F.source, time: 1))), [])
    }

    func testOtherSourcesAreIgnoredWhileADropIsFetched() {
        let other = WindowID(0x5555)
        var zone = session()
        _ = zone.received(enter([F.png]))
        XCTAssertEqual(zone.received(position(from: other)), [], "a Position from a source that did not enter")
        _ = zone.received(position())
        _ = zone.received(.drop(XdndDrop(source: F.source, time: 9)))
        XCTAssertEqual(zone.received(enter([F.png], from: other)), [])
        XCTAssertEqual(zone.received(position(from: other)), [])
        XCTAssertEqual(zone.received(.leave(XdndLeave(source: F.source))), [], "the fetch goes on")
        XCTAssertEqual(zone.received(position()), [], "positions after the drop are not answered")
        XCTAssertEqual(zone.drag?.source, F.source)
        XCTAssertEqual(zone.fetchEnded(performed: .copy), [finished(succeeded: true, action: F.copy)])
    }

    func testAnEnterFromAnotherSourceBeforeTheDropReplacesTheDrag() {
        let other = WindowID(0x5555)
        var zone = session()
        _ = zone.received(enter([F.png]))
        _ = zone.received(position())
        _ = zone.received(enter([F.plainText], from: other))
        XCTAssertEqual(zone.drag?.source, other)
        XCTAssertEqual(zone.received(position()), [], "the old source is no longer heard")
        XCTAssertEqual(zone.received(position(from: other)), [status(accepts: true, action: F.copy, to: other)])
    }

    func testMessagesATargetDoesNotTakeAreIgnored() {
        var zone = session()
        _ = zone.received(enter([F.png]))
        XCTAssertEqual(zone.received(F.status(from: F.source, accepts: true)), [])
        XCTAssertEqual(zone.received(F.finished(from: F.source, succeeded: true, action: F.copy)), [])
        XCTAssertEqual(zone.drag?.phase, .dragging)
    }

    // MARK: - Both sides

    /// Carries each side's envelopes to the other through their 32 bytes, as the server would.
    private func deliver(_ envelopes: [XdndEnvelope], to zone: inout XdndTargetSession) throws -> [XdndTargetStep] {
        var steps: [XdndTargetStep] = []
        for envelope in envelopes {
            let event = try ClientMessage(decoding: envelope.encoded(atoms: F.atoms))
            steps += zone.received(try XdndMessage(decoding: event, atoms: F.atoms))
        }
        return steps
    }

    private func answer(_ steps: [XdndTargetStep], to drag: inout XdndSourceSession, now: ContinuousClock.Instant) throws -> [XdndEnvelope] {
        var envelopes: [XdndEnvelope] = []
        for case let .send(envelope) in steps {
            let event = try ClientMessage(decoding: envelope.encoded(atoms: F.atoms))
            envelopes += drag.received(try XdndMessage(decoding: event, atoms: F.atoms), now: now)
        }
        return envelopes
    }

    func testOurSourceAndOurTargetCompleteAMoveOfManyTypes() throws {
        let now = ContinuousClock.now
        let types = [F.html, F.uriList, Atom(600), F.png]
        var drag = XdndSourceSession(source: F.source, types: types, requestedOperation: .move, atoms: F.atoms)
        var zone = session()
        let window = XdndTargetWindow(window: self.zone, awareVersion: 5)
        var steps = try deliver(drag.pointerMoved(over: window, to: F.point(1, 1), time: 1), to: &zone)
        XCTAssertEqual(steps.first, .readTypeList(source: F.source))
        XCTAssertEqual(try answer(steps, to: &drag, now: now), [])
        XCTAssertEqual(drag.answer, .refused, "refused until the list is read")
        steps = zone.typeListRead(drag.types, from: F.source)  // what XdndTypeList holds
        _ = try answer(steps, to: &drag, now: now)
        XCTAssertEqual(drag.answer, .accepted(.move))
        steps = try deliver(drag.buttonReleased(time: 5, now: now), to: &zone)
        XCTAssertEqual(steps, [.fetch(type: F.png, time: 5, operation: .move)])
        drag.selectionRequested(now: now)
        _ = try answer(zone.fetchEnded(performed: .move), to: &drag, now: now)
        XCTAssertEqual(drag.outcome, .finished(.move))
        XCTAssertNil(zone.drag)
    }

    func testOurSourceAndARefusingTargetEndForbidden() throws {
        let now = ContinuousClock.now
        var drag = XdndSourceSession(source: F.source, types: [F.html], requestedOperation: .copy, atoms: F.atoms)
        var zone = session()
        let steps = try deliver(drag.pointerMoved(over: XdndTargetWindow(window: self.zone, awareVersion: 5), to: F.point(1, 1), time: 1), to: &zone)
        _ = try answer(steps, to: &drag, now: now)
        XCTAssertEqual(try deliver(drag.buttonReleased(time: 2, now: now), to: &zone), [])
        XCTAssertEqual(drag.outcome, .forbidden)
        XCTAssertNil(zone.drag, "the Leave ended the target's drag")
    }
}

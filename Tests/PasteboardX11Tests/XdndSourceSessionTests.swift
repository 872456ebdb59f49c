import PasteboardX11
import XCTest

/// The dragging side of XDND without a display: what is sent as the pointer moves, how answers
/// are believed or ignored, and how every drag ends (finished, forbidden, cancelled, failed).
final class XdndSourceSessionTests: XCTestCase {
    private typealias F = XdndFixtures
    private let start = ContinuousClock.now
    private let v5Target = XdndTargetWindow(window: F.firstTarget, awareVersion: 5)
    private let secondV5Target = XdndTargetWindow(window: F.secondTarget, awareVersion: 5)

    private func session(_ operation: XdndOperation = .copy, types: [Atom] = [F.png, F.plainText]) -> XdndSourceSession {
        XdndSourceSession(source: F.source, types: types, requestedOperation: operation, atoms: F.atoms,
                          statusTimeout: .seconds(2), finishedTimeout: .seconds(30))
    }

    private func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int((seconds * 1000).rounded())) }

    private func enter(_ window: WindowID, version: XdndVersion, types: [Atom] = [F.png, F.plainText]) -> XdndEnvelope {
        XdndEnvelope(window: window, message: .enter(XdndEnter(source: F.source, version: version, offering: types)))
    }

    private func position(_ window: WindowID, _ point: XdndPoint, time: X11Timestamp, action: Atom = F.copy) -> XdndEnvelope {
        XdndEnvelope(window: window, message: .position(XdndPosition(source: F.source, point: point, time: time, action: action)))
    }

    private func leave(_ window: WindowID) -> XdndEnvelope { XdndEnvelope(window: window, message: .leave(XdndLeave(source: F.source))) }

    private func drop(_ window: WindowID, time: X11Timestamp) -> XdndEnvelope {
        XdndEnvelope(window: window, message: .drop(XdndDrop(source: F.source, time: time)))
    }

    // MARK: - Whole drags

    func testACopyDragAcceptedAndFinished() {
        var drag = session()
        XCTAssertFalse(drag.needsTypeList)
        XCTAssertEqual(drag.pointerMoved(over: v5Target, to: F.point(10, 20), time: 100),
                       [enter(F.firstTarget, version: F.v5), position(F.firstTarget, F.point(10, 20), time: 100)])
        XCTAssertEqual(drag.answer, .none, "no answer before the Status")
        XCTAssertEqual(drag.received(F.status(from: F.firstTarget, accepts: true), now: at(0.1)), [])
        XCTAssertEqual(drag.answer, .accepted(.copy))
        XCTAssertEqual(drag.buttonReleased(time: 150, now: at(0.2)), [drop(F.firstTarget, time: 150)])
        XCTAssertNil(drag.outcome, "drop is not acceptance: only Finished ends the drag")
        XCTAssertEqual(drag.deadline, at(30.2))
        XCTAssertEqual(drag.received(F.finished(from: F.firstTarget, succeeded: true, action: F.copy), now: at(1)), [])
        XCTAssertEqual(drag.outcome, .finished(.copy))
        XCTAssertNil(drag.deadline)
        // Once ended, nothing more is sent.
        XCTAssertEqual(drag.pointerMoved(over: secondV5Target, to: F.point(1, 1), time: 200), [])
        XCTAssertEqual(drag.escapePressed(), [])
        XCTAssertEqual(drag.outcome, .finished(.copy))
    }

    func testAMoveDragWhoseFinishedNeverComesFailsAfterTheTimeout() {
        var drag = session(.move)
        XCTAssertEqual(drag.pointerMoved(over: v5Target, to: F.point(5, 5), time: 10).last, position(F.firstTarget, F.point(5, 5), time: 10, action: F.move))
        _ = drag.received(F.status(from: F.firstTarget, accepts: true, action: F.move), now: at(0.1))
        XCTAssertEqual(drag.answer, .accepted(.move))
        XCTAssertEqual(drag.buttonReleased(time: 20, now: at(1)), [drop(F.firstTarget, time: 20)])
        XCTAssertEqual(drag.timeElapsed(now: at(30.9)), [])
        XCTAssertNil(drag.outcome, "still waiting just before the deadline")
        // The target converting XdndSelection shows it is alive: the wait restarts.
        drag.selectionRequested(now: at(20))
        XCTAssertEqual(drag.deadline, at(50))
        XCTAssertEqual(drag.timeElapsed(now: at(31)), [])
        XCTAssertNil(drag.outcome)
        XCTAssertEqual(drag.timeElapsed(now: at(50)), [])
        XCTAssertEqual(drag.outcome, .failed(.noFinished), "no move is reported without a Finished")
        // A Finished after the timeout changes nothing.
        _ = drag.received(F.finished(from: F.firstTarget, succeeded: true, action: F.move), now: at(51))
        XCTAssertEqual(drag.outcome, .failed(.noFinished))
    }

    func testAMoveIsFinishedOnlyFromASuccessfulVersion5FinishedWithMove() {
        func outcome(requesting operation: XdndOperation, finished: XdndMessage) -> XdndDragOutcome? {
            var drag = session(operation)
            _ = drag.pointerMoved(over: v5Target, to: F.point(5, 5), time: 10)
            _ = drag.received(F.status(from: F.firstTarget, accepts: true, action: F.atoms.action(for: operation)), now: at(0))
            _ = drag.buttonReleased(time: 20, now: at(0))
            _ = drag.received(finished, now: at(1))
            return drag.outcome
        }
        XCTAssertEqual(outcome(requesting: .move, finished: F.finished(from: F.firstTarget, succeeded: true, action: F.move)), .finished(.move))
        XCTAssertEqual(outcome(requesting: .move, finished: F.finished(from: F.firstTarget, succeeded: true, action: F.copy)), .finished(.copy))
        XCTAssertEqual(outcome(requesting: .move, finished: F.finished(from: F.firstTarget, succeeded: false, action: .none)), .failed(.targetFailed))
        XCTAssertEqual(outcome(requesting: .move, finished: F.finished(from: F.firstTarget, succeeded: true, action: F.atoms.actionPrivate)), .finished(.copy),
                       "a private action keeps our original")
        XCTAssertEqual(outcome(requesting: .copy, finished: F.finished(from: F.firstTarget, succeeded: true, action: F.move)), .finished(.copy),
                       "a move we did not ask for deletes nothing")
        // A Finished from another window is no answer.
        XCTAssertNil(outcome(requesting: .move, finished: F.finished(from: F.secondTarget, succeeded: true, action: F.move)))
    }

    func testATargetThatRefusesGivesForbidden() {
        var drag = session()
        _ = drag.pointerMoved(over: v5Target, to: F.point(5, 5), time: 10)
        _ = drag.received(F.status(from: F.firstTarget, accepts: false), now: at(0))
        XCTAssertEqual(drag.answer, .refused)
        XCTAssertEqual(drag.buttonReleased(time: 20, now: at(0)), [leave(F.firstTarget)])
        XCTAssertEqual(drag.outcome, .forbidden)
    }

    func testATargetThatAcceptsThenRefusesGivesForbidden() {
        var drag = session()
        _ = drag.pointerMoved(over: v5Target, to: F.point(5, 5), time: 10)
        _ = drag.received(F.status(from: F.firstTarget, accepts: true), now: at(0))
        _ = drag.pointerMoved(over: v5Target, to: F.point(6, 6), time: 11)
        _ = drag.received(F.status(from: F.firstTarget, accepts: false), now: at(0))
        XCTAssertEqual(drag.buttonReleased(time: 20, now: at(0)), [leave(F.firstTarget)], "the last Status decides")
        XCTAssertEqual(drag.outcome, .forbidden)
    }

    func testEscCancelsWithLeave() {
        var drag = session()
        _ = drag.pointerMoved(over: v5Target, to: F.point(5, 5), time: 10)
        _ = drag.received(F.status(from: F.firstTarget, accepts: true), now: at(0))
        XCTAssertEqual(drag.escapePressed(), [leave(F.firstTarget)])
        XCTAssertEqual(drag.outcome, .cancelled)
        XCTAssertEqual(drag.buttonReleased(time: 30, now: at(1)), [])
    }

    func testEscOverNoTargetAndReleaseOverNoTargetCancelWithoutMessages() {
        var escaped = session()
        XCTAssertEqual(escaped.pointerMoved(over: nil, to: F.point(5, 5), time: 10), [])
        XCTAssertEqual(escaped.escapePressed(), [])
        XCTAssertEqual(escaped.outcome, .cancelled)
        var released = session()
        _ = released.pointerMoved(over: XdndTargetWindow(window: F.firstTarget, awareVersion: nil), to: F.point(5, 5), time: 10)
        XCTAssertEqual(released.buttonReleased(time: 20, now: at(0)), [])
        XCTAssertEqual(released.outcome, .cancelled)
    }

    func testEscAfterTheDropIsTooLate() {
        var drag = session()
        _ = drag.pointerMoved(over: v5Target, to: F.point(5, 5), time: 10)
        _ = drag.received(F.status(from: F.firstTarget, accepts: true), now: at(0))
        _ = drag.buttonReleased(time: 20, now: at(0))
        XCTAssertEqual(drag.escapePressed(), [])
        XCTAssertNil(drag.outcome)
        _ = drag.received(F.finished(from: F.firstTarget, succeeded: true, action: F.copy), now: at(1))
        XCTAssertEqual(drag.outcome, .finished(.copy))
    }

    func testEnteringASecondWindowMidDragLeavesTheFirst() {
        var drag = session()
        _ = drag.pointerMoved(over: v5Target, to: F.point(5, 5), time: 10)
        _ = drag.received(F.status(from: F.firstTarget, accepts: true), now: at(0))
        let second = XdndTargetWindow(window: F.secondTarget, awareVersion: 4)
        XCTAssertEqual(drag.pointerMoved(over: second, to: F.point(500, 5), time: 11), [
            leave(F.firstTarget), enter(F.secondTarget, version: F.v4), position(F.secondTarget, F.point(500, 5), time: 11),
        ])
        XCTAssertEqual(drag.target, second)
        XCTAssertEqual(drag.version, F.v4)
        XCTAssertEqual(drag.answer, .none, "the first target's answer is forgotten")
        // A late Status of the first target is not the second's answer.
        XCTAssertEqual(drag.received(F.status(from: F.firstTarget, accepts: true), now: at(0)), [])
        XCTAssertEqual(drag.answer, .none)
        XCTAssertEqual(drag.buttonReleased(time: 12, now: at(1)), [], "the second target's Status is awaited")
        _ = drag.received(F.status(from: F.secondTarget, accepts: true), now: at(1.5))
        // Leaving to a window that does not speak XDND (or below version 3) sends Leave only.
        var other = session()
        _ = other.pointerMoved(over: v5Target, to: F.point(5, 5), time: 10)
        XCTAssertEqual(other.pointerMoved(over: XdndTargetWindow(window: F.secondTarget, awareVersion: 2), to: F.point(6, 6), time: 11), [leave(F.firstTarget)])
        XCTAssertNil(other.target)
        XCTAssertEqual(other.pointerMoved(over: nil, to: F.point(7, 7), time: 12), [])
    }

    func testAVersion3TargetIsSpokenToInVersion3AndItsFinishedIsACopy() {
        // Before version 5 XdndFinished's data.l[1] and l[2] are reserved (zeros): the target
        // says it is done, not what it did, so a move is reported as a copy (nothing deleted).
        for awareVersion: UInt32 in [3, 4] {
            var drag = session(.move)
            let old = XdndTargetWindow(window: F.firstTarget, awareVersion: awareVersion)
            let version = XdndVersion(rawValue: UInt8(awareVersion))!
            XCTAssertEqual(drag.pointerMoved(over: old, to: F.point(1, 2), time: 10).first, enter(F.firstTarget, version: version))
            _ = drag.received(F.status(from: F.firstTarget, accepts: true, action: F.move), now: at(0))
            XCTAssertEqual(drag.answer, .accepted(.move))
            XCTAssertEqual(drag.buttonReleased(time: 20, now: at(0)), [drop(F.firstTarget, time: 20)])
            _ = drag.received(F.finishedBeforeVersion5(from: F.firstTarget), now: at(1))
            XCTAssertEqual(drag.outcome, .finished(.copy), "version \(awareVersion)")
        }
        // A newer window than ours is spoken to in 5.
        var newer = session()
        XCTAssertEqual(newer.pointerMoved(over: XdndTargetWindow(window: F.firstTarget, awareVersion: 9), to: F.point(1, 2), time: 10).first,
                       enter(F.firstTarget, version: F.v5))
    }

    // MARK: - Throttling

    func testOnePositionIsOutstandingUntilItsStatus() {
        var drag = session()
        _ = drag.pointerMoved(over: v5Target, to: F.point(1, 1), time: 1)
        XCTAssertEqual(drag.pointerMoved(over: v5Target, to: F.point(2, 2), time: 2), [])
        XCTAssertEqual(drag.pointerMoved(over: v5Target, to: F.point(3, 3), time: 3), [])
        XCTAssertEqual(drag.received(F.status(from: F.firstTarget, accepts: true), now: at(0)),
                       [position(F.firstTarget, F.point(3, 3), time: 3)], "the latest move, once")
        XCTAssertEqual(drag.received(F.status(from: F.firstTarget, accepts: true), now: at(0)), [])
        XCTAssertEqual(drag.pointerMoved(over: v5Target, to: F.point(4, 4), time: 4), [position(F.firstTarget, F.point(4, 4), time: 4)])
    }

    func testNoPositionInsideTheQuietRectangle() {
        var drag = session()
        _ = drag.pointerMoved(over: v5Target, to: F.point(15, 15), time: 1)
        let quiet = XdndStatus(target: F.firstTarget, accepts: true, wantsEveryPosition: false,
                               quietRectangle: XdndRectangle(origin: F.point(10, 10), width: 20, height: 20), action: F.copy)
        _ = drag.received(.status(quiet), now: at(0))
        XCTAssertEqual(drag.pointerMoved(over: v5Target, to: F.point(29, 29), time: 2), [])
        XCTAssertEqual(drag.pointerMoved(over: v5Target, to: F.point(30, 29), time: 3), [position(F.firstTarget, F.point(30, 29), time: 3)])
        // The same rectangle with want-position set asks for every move.
        var every = session()
        _ = every.pointerMoved(over: v5Target, to: F.point(15, 15), time: 1)
        _ = every.received(.status(XdndStatus(target: F.firstTarget, accepts: true, wantsEveryPosition: true, quietRectangle: quiet.quietRectangle, action: F.copy)), now: at(0))
        XCTAssertEqual(every.pointerMoved(over: v5Target, to: F.point(16, 16), time: 2), [position(F.firstTarget, F.point(16, 16), time: 2)])
    }

    func testAReleaseWaitsForTheOutstandingStatus() {
        var accepted = session()
        _ = accepted.pointerMoved(over: v5Target, to: F.point(1, 1), time: 1)
        XCTAssertEqual(accepted.buttonReleased(time: 9, now: at(0)), [])
        XCTAssertEqual(accepted.deadline, at(2))
        XCTAssertEqual(accepted.pointerMoved(over: secondV5Target, to: F.point(2, 2), time: 10), [], "the pointer no longer matters")
        XCTAssertEqual(accepted.received(F.status(from: F.firstTarget, accepts: true), now: at(0.5)), [drop(F.firstTarget, time: 9)])
        XCTAssertEqual(accepted.deadline, at(30.5))

        var refused = session()
        _ = refused.pointerMoved(over: v5Target, to: F.point(1, 1), time: 1)
        _ = refused.buttonReleased(time: 9, now: at(0))
        XCTAssertEqual(refused.received(F.status(from: F.firstTarget, accepts: false), now: at(0.5)), [leave(F.firstTarget)])
        XCTAssertEqual(refused.outcome, .forbidden)

        var silent = session()
        _ = silent.pointerMoved(over: v5Target, to: F.point(1, 1), time: 1)
        _ = silent.buttonReleased(time: 9, now: at(0))
        XCTAssertEqual(silent.timeElapsed(now: at(1.9)), [])
        XCTAssertEqual(silent.timeElapsed(now: at(2)), [leave(F.firstTarget)])
        XCTAssertEqual(silent.outcome, .failed(.noStatus))
    }

    // MARK: - What is sent where

    func testMoreThanThreeTypesAskForTheTypeList() {
        let types = [F.png, F.uriList, F.plainText, F.html]
        var drag = session(types: types)
        XCTAssertTrue(drag.needsTypeList)
        guard case let .enter(enter)? = drag.pointerMoved(over: v5Target, to: F.point(1, 1), time: 1).first?.message else {
            return XCTFail("no Enter")
        }
        XCTAssertTrue(enter.usesTypeList)
        XCTAssertEqual(enter.types, [F.png, F.uriList, F.plainText])
    }

    func testAProxyReceivesTheMessagesAboutItsWindow() {
        var drag = session()
        let proxied = XdndTargetWindow(window: F.firstTarget, awareVersion: 5, proxy: WindowID(0x77))
        let sent = drag.pointerMoved(over: proxied, to: F.point(1, 1), time: 1)
        XCTAssertEqual(sent.map(\.destination), [WindowID(0x77), WindowID(0x77)])
        XCTAssertEqual(sent.map(\.window), [F.firstTarget, F.firstTarget])
        _ = drag.received(F.status(from: F.firstTarget, accepts: true), now: at(0))
        XCTAssertEqual(drag.escapePressed().map(\.destination), [WindowID(0x77)])
    }

    func testMessagesASourceDoesNotTakeAreIgnored() {
        var drag = session()
        _ = drag.pointerMoved(over: v5Target, to: F.point(1, 1), time: 1)
        for message: XdndMessage in [
            .enter(XdndEnter(source: F.firstTarget, version: F.v5, offering: [F.png])),
            .position(XdndPosition(source: F.firstTarget, point: F.point(1, 1), time: 1, action: F.copy)),
            .leave(XdndLeave(source: F.firstTarget)),
            .drop(XdndDrop(source: F.firstTarget, time: 1)),
            F.finished(from: F.firstTarget, succeeded: true, action: F.copy),  // before any drop
            F.status(from: F.secondTarget, accepts: true),
        ] {
            XCTAssertEqual(drag.received(message, now: at(0)), [], "\(message)")
        }
        XCTAssertNil(drag.outcome)
        XCTAssertEqual(drag.answer, .none)
    }
}

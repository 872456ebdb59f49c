import Pasteboard
@testable import PasteboardDesktop
import PasteboardDesktopTypes
import PasteboardTypes
@testable import PasteboardX11
import XCTest

/// The clipboard manager's pure parts: the budget, the SAVE_TARGETS list, how saved data is
/// kept, what the importer's promises find, and the thread-to-task question channel.
final class ClipboardHandoverTests: XCTestCase {
    private let mapping = DesktopTypeMapping(registry: .builtIn)
    private let png = TypeIdentifier(rawValue: "public.png")

    private func le32(_ values: [UInt32]) -> [UInt8] {
        values.flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8 & 0xff), UInt8($0 >> 16 & 0xff), UInt8($0 >> 24)] }
    }

    // MARK: Budget

    func testTheBudgetIs64MiBAndEachRepresentationGetsWhatIsLeft() {
        XCTAssertEqual(HandoverBudget.defaultTotal, 67_108_864)
        var budget = HandoverBudget(total: 100)
        XCTAssertEqual(budget.limitForNext, 100)
        budget.consume(70)
        XCTAssertEqual(budget.limitForNext, 30)
        budget.consume(500)
        XCTAssertEqual(budget.limitForNext, 0, "never below nothing")
        XCTAssertEqual(HandoverBudget(total: -5).limitForNext, 0)
        budget.consume(-10)
        XCTAssertEqual(budget.used, 100)
    }

    // MARK: The SAVE_TARGETS list

    func testNoPropertyMeansEveryTarget() {
        XCTAssertEqual(SaveTargetsList.decode(type: .none, format: 0, bytesAfter: 0, data: []), .all)
    }

    func testAListOfAtomsIsReadInOrderWithoutNone() {
        XCTAssertEqual(SaveTargetsList.decode(type: .atom, format: 32, bytesAfter: 0, data: le32([300, 0, 31])), .listed([Atom(300), Atom(31)]))
        XCTAssertEqual(SaveTargetsList.decode(type: .atom, format: 32, bytesAfter: 0, data: []), .listed([]))
    }

    func testAMalformedListIsRefused() {
        for (type, format, after, data) in [
            (Atom.string, UInt8(8), UInt32(0), Array("UTF8_STRING".utf8)),
            (Atom.atom, UInt8(8), UInt32(0), [1, 2, 3, 4]),
            (Atom.atom, UInt8(32), UInt32(4), le32([300])),
            (Atom.atom, UInt8(32), UInt32(0), [1, 2, 3, 4, 5]),
            (Atom.atom, UInt8(32), UInt32(0), le32(Array(repeating: 300, count: SaveTargetsList.maximumTargets + 1))),
        ] {
            guard case .malformed = SaveTargetsList.decode(type: type, format: format, bytesAfter: after, data: data) else {
                return XCTFail("type \(type) format \(format) after \(after) of \(data.count) bytes was accepted")
            }
        }
    }

    // MARK: Keeping

    func testTheImportersItemIsFilledInPlaceAndANewItemMadeOnlyWhenItIsGone() {
        XCTAssertEqual(HandoverKeeping.decide(importedChangeCount: 4, currentChangeCount: 4, lazy: [png], saved: [png, .utf8PlainText]), .settlePromises)
        XCTAssertEqual(HandoverKeeping.decide(importedChangeCount: 4, currentChangeCount: 4, lazy: [], saved: [.utf8PlainText]), .alreadyKept)
        XCTAssertEqual(HandoverKeeping.decide(importedChangeCount: 4, currentChangeCount: 4, lazy: [png], saved: [.utf8PlainText]), .alreadyKept,
                       "what was not saved stays as it is")
        XCTAssertEqual(HandoverKeeping.decide(importedChangeCount: 4, currentChangeCount: 5, lazy: [png], saved: [png]), .newItem, "something newer came")
        XCTAssertEqual(HandoverKeeping.decide(importedChangeCount: nil, currentChangeCount: 4, lazy: [], saved: [png]), .newItem, "never imported")
    }

    private func saved(_ targets: [(String, String)], owner: WindowID = WindowID(7)) -> SavedOffer {
        let representations = mapping.representations(forOffered: targets.map(\.0)).representations
        return SavedOffer(owner: owner, saved: representations.map { representation in
            SavedOffer.Saved(representation: representation, bytes: Array(targets.first { $0.0 == representation.target }!.1.utf8))
        }, skipped: [])
    }

    func testANewItemHoldsTheConvertedBytesAndTheImportersFingerprint() {
        let offer = saved([("image/png", "PNG!"), ("STRING", "caf\u{E9}")].map { ($0.0, $0.1) })
        let (provider, fingerprint) = offer.item()
        XCTAssertEqual(provider.registeredTypes, [png, .utf8PlainText])
        XCTAssertFalse(provider.isSensitive)
        XCTAssertEqual(offer.byteCount, 4 + "caf\u{E9}".utf8.count)
        // The importer fingerprints the same offer by its types and its captured text only.
        let text = offer.converted[.utf8PlainText]
        XCTAssertEqual(fingerprint, ContentFingerprint(types: [png, .utf8PlainText], captured: [.utf8PlainText: text ?? []]))
    }

    func testASavedSecretIsSensitive() {
        XCTAssertTrue(saved([("UTF8_STRING", "pw"), ("x-kde-passwordManagerHint", "secret")]).item().provider.isSensitive)
        XCTAssertFalse(saved([("UTF8_STRING", "pw"), ("x-kde-passwordManagerHint", "public")]).item().provider.isSensitive)
        XCTAssertTrue(saved([("UTF8_STRING", "pw"), (DesktopTypeMapping.concealedTarget, "")]).item().provider.isSensitive)
    }

    // MARK: The importer's promises

    func testPromisesFindTheHeldBytesOfTheirOwnerOnly() {
        let handover = ClipboardHandover()
        let offer = saved([("image/png", "PNG!")])
        XCTAssertEqual(handover.lookup(owner: offer.owner, target: "image/png"), ClipboardHandover.Lookup.none)
        handover.hold(offer)
        XCTAssertEqual(handover.lookup(owner: offer.owner, target: "image/png"), .saved(Array("PNG!".utf8)))
        XCTAssertEqual(handover.lookup(owner: offer.owner, target: "text/html"), .notHandedOver)
        XCTAssertEqual(handover.lookup(owner: WindowID(8), target: "image/png"), ClipboardHandover.Lookup.none)
        handover.release(WindowID(8))
        XCTAssertEqual(handover.lookup(owner: offer.owner, target: "image/png"), .saved(Array("PNG!".utf8)), "another owner's release keeps it")
        handover.release(offer.owner)
        XCTAssertEqual(handover.lookup(owner: offer.owner, target: "image/png"), ClipboardHandover.Lookup.none)
    }

    func testTheLatestImportIsRemembered() {
        let handover = ClipboardHandover()
        XCTAssertNil(handover.importedChangeCount(of: WindowID(7)))
        handover.recordImport(owner: WindowID(7), changeCount: 3)
        XCTAssertEqual(handover.importedChangeCount(of: WindowID(7)), 3)
        handover.recordImport(owner: WindowID(9), changeCount: 4)
        XCTAssertNil(handover.importedChangeCount(of: WindowID(7)))
    }

    func testAnOlderImportRecordedLateDoesNotHideTheNewerAndTheOwnerLeavingForgetsIt() {
        let handover = ClipboardHandover()
        // The clipboard manager kept a hand-over as change 2 while the importer's write of the
        // same owner's offer, change 1, was still on its way.
        handover.recordImport(owner: WindowID(7), changeCount: 2)
        handover.recordImport(owner: WindowID(7), changeCount: 1)
        XCTAssertEqual(handover.importedChangeCount(of: WindowID(7)), 2)
        // The owner leaves: the desktop gets change 2 back, and the window id (which the X
        // server may give the next application) is forgotten.
        XCTAssertEqual(handover.ownerLeft(), 2)
        XCTAssertNil(handover.importedChangeCount(of: WindowID(7)))
        XCTAssertNil(handover.ownerLeft())
    }

    // MARK: The question channel

    func testAQuestionIsAnsweredByTheTask() async {
        let channel = AnswerChannel<Int, String>()
        let asker = Task.detached { channel.ask(41, timeout: .seconds(60)) }
        for await question in channel.questions {
            channel.answer("answer to \(question)")
            break
        }
        let answer = await asker.value
        XCTAssertEqual(answer, "answer to 41")
    }

    func testClosingAnswersAWaitingQuestionAndEveryLaterOneWithNothing() async {
        let channel = AnswerChannel<Int, String>()
        let asker = Task.detached { channel.ask(1, timeout: .seconds(60)) }
        for await _ in channel.questions {
            channel.close()
        }
        let first = await asker.value
        XCTAssertNil(first)
        XCTAssertNil(channel.ask(2, timeout: .seconds(60)), "a closed channel answers at once")
    }

    func testAnUnansweredQuestionEndsAtItsTimeout() {
        let channel = AnswerChannel<Int, String>()
        XCTAssertNil(channel.ask(1, timeout: .zero))
        channel.answer("too late")
        XCTAssertNil(channel.ask(2, timeout: .zero), "a late answer is not the next question's")
    }
}

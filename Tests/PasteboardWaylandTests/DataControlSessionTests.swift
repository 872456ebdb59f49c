@testable import PasteboardWayland
import XCTest

/// The data-control state machine driven by scripted compositor messages: both protocols (the
/// ext one only here, since Debian's sway offers wlr alone), the set-up, offers and their
/// replacement, and every way the compositor can end things.
final class DataControlSessionTests: XCTestCase {
    private let offerID: UInt32 = 0xff00_0000

    func testSetUpAsksForTheRegistryAndARoundtrip() throws {
        var compositor = try ScriptedCompositor()
        XCTAssertEqual(compositor.requests(), [
            WireMessage(objectID: 1, opcode: 1, arguments: [.newID(2)]),
            WireMessage(objectID: 1, opcode: 0, arguments: [.newID(3)]),
        ])
        XCTAssertEqual(compositor.session.phase, .discovering)
    }

    func testExtIsPreferredAndBoundWithTheSeatAndItsDevice() throws {
        var compositor = try ScriptedCompositor()
        _ = compositor.requests()
        try compositor.announce([(1, "wl_seat", 7), (2, "zwlr_data_control_manager_v1", 2), (3, "ext_data_control_manager_v1", 1), (4, "wl_output", 4)])
        XCTAssertEqual(compositor.session.dataControl, .ext)
        XCTAssertEqual(compositor.requests(), [
            WireMessage(objectID: 2, opcode: 0, arguments: [.uint(1), .untypedNewID(interface: "wl_seat", version: 2, id: 4)]),
            WireMessage(objectID: 2, opcode: 0, arguments: [.uint(3), .untypedNewID(interface: "ext_data_control_manager_v1", version: 1, id: 5)]),
            WireMessage(objectID: 5, opcode: 1, arguments: [.newID(6), .object(4)]),
            WireMessage(objectID: 1, opcode: 0, arguments: [.newID(7)]),
        ])
        XCTAssertEqual(compositor.session.phase, .binding)
        XCTAssertTrue(compositor.session.hasPrimarySelection)
        try initialSelections(&compositor, device: 6, callback: 7)
    }

    func testWlrIsUsedAtVersionTwoWhenExtIsMissing() throws {
        var compositor = try ScriptedCompositor()
        _ = compositor.requests()
        try compositor.announce([(1, "wl_seat", 9), (2, "zwlr_data_control_manager_v1", 2)])
        XCTAssertEqual(compositor.session.dataControl, .wlr)
        XCTAssertTrue(compositor.session.hasPrimarySelection)
        XCTAssertEqual(compositor.requests()[1], WireMessage(objectID: 2, opcode: 0, arguments: [
            .uint(2), .untypedNewID(interface: "zwlr_data_control_manager_v1", version: 2, id: 5),
        ]))
        try initialSelections(&compositor, device: 6, callback: 7)
    }

    func testWlrVersionOneHasNoPrimarySelection() throws {
        var compositor = try ScriptedCompositor()
        try compositor.announce([(1, "wl_seat", 9), (2, "zwlr_data_control_manager_v1", 1)])
        XCTAssertEqual(compositor.session.dataControlVersion, 1)
        XCTAssertFalse(compositor.session.hasPrimarySelection)
    }

    func testACompositorWithoutDataControlOrSeatIsAClearError() throws {
        var compositor = try ScriptedCompositor()
        XCTAssertThrowsError(try compositor.announce([(1, "wl_seat", 9), (2, "wl_data_device_manager", 3)])) {
            XCTAssertEqual($0 as? WaylandError, .noDataControl)
            XCTAssertTrue("\($0)".contains("ext_data_control_manager_v1"))
        }
        var seatless = try ScriptedCompositor()
        XCTAssertThrowsError(try seatless.announce([(2, "ext_data_control_manager_v1", 1)])) {
            XCTAssertEqual($0 as? WaylandError, .noSeat)
        }
    }

    func testOffersCollectTheirTypesAndReplacingOneDestroysIt() throws {
        var compositor = try ready(.ext)
        try offer(&compositor, offerID + 1, ["image/png", "text/uri-list"], selection: 1)
        XCTAssertEqual(compositor.changes.last?.offer?.mimeTypes, ["image/png", "text/uri-list"])
        XCTAssertEqual(compositor.requests(), [WireMessage(objectID: offerID, opcode: 1)])  // the initial offer, destroyed
        let current = try XCTUnwrap(compositor.session.selections[.clipboard])

        // A read: receive(mime_type, fd) on the offer, the descriptor beside it.
        try compositor.session.receive("image/png", from: current, into: 42)
        XCTAssertEqual(compositor.requests(), [WireMessage(objectID: offerID + 1, opcode: 0, arguments: [.string("image/png"), .fd(42)])])
        XCTAssertThrowsError(try compositor.session.receive("text/html", from: current, into: 42)) {
            XCTAssertEqual($0 as? WaylandError, .mimeTypeNotOffered("text/html", offered: ["image/png", "text/uri-list"]))
        }

        // The selection is cleared (its owner quit): the old offer is refused from now on.
        try compositor.send(6, 1, [.object(0)])
        XCTAssertEqual(compositor.changes.last, SelectionChange(kind: .clipboard, offer: nil))
        XCTAssertThrowsError(try compositor.session.receive("image/png", from: current, into: 42)) {
            XCTAssertEqual($0 as? WaylandError, .offerReplaced)
        }

        // The compositor reuses the offer's id: the new offer is told apart by its serial.
        try offer(&compositor, offerID + 1, ["text/plain"], selection: 1)
        let reused = try XCTUnwrap(compositor.session.selections[.clipboard])
        XCTAssertEqual(reused.objectID, current.objectID)
        XCTAssertNotEqual(reused.serial, current.serial)
        XCTAssertThrowsError(try compositor.session.receive("image/png", from: current, into: 42))
    }

    func testPrimarySelectionIsFollowedSeparately() throws {
        var compositor = try ready(.wlr)
        try offer(&compositor, offerID + 2, ["text/plain;charset=utf-8"], selection: 3)
        XCTAssertEqual(compositor.changes.last?.kind, .primary)
        XCTAssertEqual(compositor.session.selections[.primary]?.mimeTypes, ["text/plain;charset=utf-8"])
        XCTAssertEqual(compositor.session.selections[.clipboard]?.mimeTypes, ["text/plain"])
    }

    func testFinishedInvalidatesTheDevice() throws {
        var compositor = try ready(.ext)
        let offer = try XCTUnwrap(compositor.session.selections[.clipboard])
        try compositor.send(6, 2)
        XCTAssertEqual(compositor.session.phase, .finished)
        XCTAssertEqual(compositor.requests(), [WireMessage(objectID: 6, opcode: 1), WireMessage(objectID: offerID, opcode: 1)])
        XCTAssertEqual(compositor.changes.last, SelectionChange(kind: .clipboard, offer: nil))
        XCTAssertThrowsError(try compositor.session.receive("text/plain", from: offer, into: 3)) {
            XCTAssertEqual($0 as? WaylandError, .deviceFinished)
        }
    }

    func testDisplayErrorNamesTheObjectItsInterfaceCodeAndMessage() throws {
        var compositor = try ready(.ext)
        XCTAssertThrowsError(try compositor.send(1, 0, [.object(6), .uint(1), .string("source given to set_selection was already used")])) {
            XCTAssertEqual($0 as? WaylandError, .protocolError(objectID: 6, interface: "ext_data_control_device_v1", code: 1, message: "source given to set_selection was already used"))
            XCTAssertEqual("\($0)", "Wayland protocol error on ext_data_control_device_v1@6, code 1: source given to set_selection was already used")
        }
    }

    func testDeleteIDFreesTheIdForTheNextObject() throws {
        var compositor = try ready(.ext)
        let token = try compositor.session.sync()
        XCTAssertEqual(compositor.requests(), [WireMessage(objectID: 1, opcode: 0, arguments: [.newID(8)])])
        XCTAssertFalse(compositor.session.isSynced(token))
        try compositor.send(8, 0, [.uint(0)])
        try compositor.send(1, 1, [.uint(8)])  // done and delete_id come together
        XCTAssertTrue(compositor.session.isSynced(token), "a sync stays done after its id is freed")
        _ = try compositor.session.sync()
        try compositor.send(1, 1, [.uint(3)])
        _ = try compositor.session.sync()
        _ = try compositor.session.sync()
        XCTAssertEqual(compositor.requests().map(\.arguments), [[.newID(8)], [.newID(3)], [.newID(9)]], "freed ids are reused lowest first")
    }

    func testEventsForUnknownObjectsOrOpcodesAreErrorsNotCrashes() throws {
        var compositor = try ready(.ext)
        XCTAssertThrowsError(try compositor.send(77, 0)) {
            XCTAssertEqual($0 as? WaylandError, .unexpectedEvent(objectID: 77, opcode: 0))
        }
        XCTAssertThrowsError(try compositor.send(6, 9)) {
            XCTAssertEqual($0 as? WaylandError, .unexpectedEvent(objectID: 6, opcode: 9))
        }
        // A selection naming an offer never introduced.
        XCTAssertThrowsError(try compositor.send(6, 1, [.object(0xff00_0055)]))
    }

    func testSeatNameAndCapabilitiesAreKept() throws {
        var compositor = try ready(.ext)
        try compositor.send(4, 0, [.uint(3)])
        try compositor.send(4, 1, [.string("seat0")])
        XCTAssertEqual(compositor.session.seatName, "seat0")
        XCTAssertEqual(compositor.session.seatCapabilities, 3)
    }

    // MARK: - Helpers

    /// A session bound to `protocol` whose clipboard offers text/plain and primary is empty.
    private func ready(_ protocol: DataControlProtocol) throws -> ScriptedCompositor {
        var compositor = try ScriptedCompositor()
        try compositor.announce([(1, "wl_seat", 8), (2, `protocol`.managerInterface, `protocol`.maxVersion)])
        try initialSelections(&compositor, device: 6, callback: 7)
        _ = compositor.requests()
        compositor.changes = []
        return compositor
    }

    /// The device's first events: a text offer as the selection, no primary, then the sync's done.
    private func initialSelections(_ compositor: inout ScriptedCompositor, device: UInt32, callback: UInt32) throws {
        try offer(&compositor, offerID, ["text/plain"], selection: 1)
        try compositor.send(device, 3, [.object(0)])
        XCTAssertEqual(compositor.session.phase, .binding)
        try compositor.send(callback, 0, [.uint(0)])
        XCTAssertEqual(compositor.session.phase, .ready)
        XCTAssertEqual(compositor.session.selections[.clipboard]?.mimeTypes, ["text/plain"])
        XCTAssertNil(compositor.session.selections[.primary])
    }

    /// data_offer, its offer events, then selection (opcode 1) or primary_selection (3) on device 6.
    private func offer(_ compositor: inout ScriptedCompositor, _ id: UInt32, _ types: [String], selection opcode: UInt16) throws {
        try compositor.send(6, 0, [.newID(id)])
        for type in types { try compositor.send(id, 0, [.string(type)]) }
        try compositor.send(6, opcode, [.object(id)])
    }
}

/// What a compositor that misbehaves on purpose cannot make the session hold.
extension DataControlSessionTests {
    func testAnOfferOfAMillionTypesKeepsOnlyTheMostAndSaysSo() throws {
        var compositor = try ready(.wlr)
        let id = offerID + 1
        try compositor.send(6, 0, [.newID(id)])
        for index in 0..<(SelectionOffer.maximumMIMETypes + 500) {
            try compositor.send(id, 0, [.string("application/x-hostile-\(index)")])
        }
        try compositor.send(id, 0, [.string("text/" + String(repeating: "x", count: 5000))])
        try compositor.send(6, 1, [.object(id)])
        let offer = try XCTUnwrap(compositor.changes.last?.offer)
        XCTAssertEqual(offer.mimeTypes.count, SelectionOffer.maximumMIMETypes)
        XCTAssertTrue(offer.isOverflowing)
        // The next, ordinary offer is whole again.
        try compositor.send(6, 0, [.newID(id + 1)])
        try compositor.send(id + 1, 0, [.string("text/plain")])
        try compositor.send(6, 1, [.object(id + 1)])
        XCTAssertEqual(compositor.changes.last?.offer?.mimeTypes, ["text/plain"])
        XCTAssertEqual(compositor.changes.last?.offer?.isOverflowing, false)
    }

    func testOffersAnnouncedWithoutEndAreRefused() throws {
        var compositor = try ready(.wlr)
        var refused = false
        for index in 0..<200 where !refused {
            do { try compositor.send(6, 0, [.newID(offerID + 1 + UInt32(index))]) } catch { refused = true }
        }
        XCTAssertTrue(refused, "200 offers that never became a selection were all followed")
    }

    func testDescriptorsBesideEventsThatTakeNoneAreClosedAtOnce() throws {
        var reader = MessageReader()
        var pipes: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&pipes), 0)
        // A complete event that takes no descriptor, sent with one.
        reader.append(try WireEncoder.encode(WireMessage(objectID: 3, opcode: 0, arguments: [.uint(1)])), descriptors: [pipes[0]])
        let frame = try XCTUnwrap(try reader.nextFrame())
        _ = try reader.decode(frame.bytes, signature: [.uint])
        XCTAssertEqual(try reader.dropUnclaimedDescriptors(), 1)
        XCTAssertEqual(reader.descriptors, [])
        XCTAssertEqual(fcntl(pipes[0], F_GETFD), -1, "the descriptor is still open")
        close(pipes[1])

        // With part of a message waiting, a few are kept for it, a flood is an error.
        var waiting = MessageReader()
        let bytes = try WireEncoder.encode(WireMessage(objectID: 3, opcode: 0, arguments: [.uint(1)]))
        waiting.append(bytes.prefix(4), descriptors: [])
        XCTAssertEqual(try waiting.dropUnclaimedDescriptors(), 0)
        waiting.append([], descriptors: Array(repeating: -1, count: MessageReader.maxWaitingDescriptors + 1))
        XCTAssertThrowsError(try waiting.dropUnclaimedDescriptors())
    }
}

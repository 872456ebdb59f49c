import Glibc
@testable import PasteboardWayland
import XCTest

/// A window of ours (drag handle, drop zone) driven by scripted compositor messages, with no
/// compositor: the set-up, the first picture, a drag from the handle and how it ends, a drop
/// into the zone held until answered, and what a misbehaving compositor or peer gets.
final class SurfaceSessionTests: XCTestCase {
    // Ids in the order the session makes them (no delete_id is scripted, so none is reused).
    private let (compositor, shm, wmBase, seat, manager, surface, xdgSurface, toplevel, device) =
        (UInt32(4), UInt32(5), UInt32(6), UInt32(7), UInt32(8), UInt32(9), UInt32(10), UInt32(11), UInt32(12))
    private let (pool, buffer, pointer, keyboard) = (UInt32(13), UInt32(14), UInt32(15), UInt32(16))
    private let offer: UInt32 = 0xff00_0001
    private let picture = SurfaceSession.Picture(title: "Pasteboard: drag session 3", appID: "pasteboard-drag-handle", width: 4, height: 2)

    private static let globals: [(UInt32, String, UInt32)] = [
        (1, "wl_compositor", 6), (2, "wl_shm", 1), (3, "xdg_wm_base", 5), (4, "wl_seat", 8), (5, "wl_data_device_manager", 3),
    ]

    private func session(_ role: SurfaceSession.Role, globals: [(UInt32, String, UInt32)] = globals) throws -> SurfaceSession {
        var session = try SurfaceSession(role: role, picture: picture, memory: 42)
        for (name, interface, version) in globals {
            try session.handle(WireMessage(objectID: 2, opcode: 0, arguments: [.uint(name), .string(interface), .uint(version)]))
        }
        try session.handle(WireMessage(objectID: 3, opcode: 0, arguments: [.uint(0)]))
        return session
    }

    /// A session shown (configured once) with a pointer and a keyboard; its requests drained.
    private func shown(_ role: SurfaceSession.Role) throws -> SurfaceSession {
        var session = try session(role)
        try session.handle(WireMessage(objectID: xdgSurface, opcode: 0, arguments: [.uint(1)]))
        try session.handle(WireMessage(objectID: seat, opcode: 0, arguments: [.uint(3)]))
        session.outgoing = []
        session.events = []
        return session
    }

    private var handle: SurfaceSession.Role { .dragHandle(types: ["image/png", "text/uri-list"], actions: [.copy, .move]) }
    private var zone: SurfaceSession.Role {
        .dropZone(WaylandDropTarget(takes: [.copy, .move]) { types in types.first { $0 == "image/png" } })
    }

    /// A pipe's read end (the write end closed): a descriptor to hand the session and check.
    private func descriptor() -> Int32 {
        var ends: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&ends), 0)
        close(ends[1])
        return ends[0]
    }

    private func isOpen(_ descriptor: Int32) -> Bool { fcntl(descriptor, F_GETFD) >= 0 }

    func testSetUpBindsWhatAWindowNeedsAtTheVersionsItKnowsAndMakesAToplevel() throws {
        let session = try session(handle)
        XCTAssertEqual(session.phase, .configuring)
        XCTAssertEqual(Array(session.outgoing.prefix(7)), [
            WireMessage(objectID: 1, opcode: 1, arguments: [.newID(2)]),
            WireMessage(objectID: 1, opcode: 0, arguments: [.newID(3)]),
            WireMessage(objectID: 2, opcode: 0, arguments: [.uint(1), .untypedNewID(interface: "wl_compositor", version: 4, id: compositor)]),
            WireMessage(objectID: 2, opcode: 0, arguments: [.uint(2), .untypedNewID(interface: "wl_shm", version: 1, id: shm)]),
            WireMessage(objectID: 2, opcode: 0, arguments: [.uint(3), .untypedNewID(interface: "xdg_wm_base", version: 1, id: wmBase)]),
            WireMessage(objectID: 2, opcode: 0, arguments: [.uint(4), .untypedNewID(interface: "wl_seat", version: 3, id: seat)]),
            WireMessage(objectID: 2, opcode: 0, arguments: [.uint(5), .untypedNewID(interface: "wl_data_device_manager", version: 3, id: manager)]),
        ])
        XCTAssertTrue(session.outgoing.contains(WireMessage(objectID: toplevel, opcode: 2, arguments: [.string("Pasteboard: drag session 3")])))
        XCTAssertTrue(session.outgoing.contains(WireMessage(objectID: manager, opcode: 1, arguments: [.newID(device), .object(seat)])))
        XCTAssertEqual(session.outgoing.filter { $0.objectID == surface }, [WireMessage(objectID: surface, opcode: 6)],
                       "the first commit carries no buffer, as xdg-shell asks")
    }

    func testACompositorWithoutDragActionsIsAClearError() throws {
        var globals = Self.globals
        globals[4] = (5, "wl_data_device_manager", 2)
        XCTAssertThrowsError(try session(handle, globals: globals)) {
            XCTAssertEqual($0 as? WaylandError, .missingGlobal(interface: "wl_data_device_manager", version: 3))
            XCTAssertTrue("\($0)".contains("wl_data_device_manager of version 3"), "\($0)")
        }
        XCTAssertThrowsError(try session(handle, globals: Array(Self.globals.dropFirst(2)))) {
            XCTAssertEqual($0 as? WaylandError, .missingGlobal(interface: "wl_compositor", version: 1))
        }
    }

    func testTheFirstConfigureShowsThePictureAndLaterOnesAreOnlyAcknowledged() throws {
        var session = try session(handle)
        session.outgoing = []
        try session.handle(WireMessage(objectID: xdgSurface, opcode: 0, arguments: [.uint(7)]))
        XCTAssertEqual(session.outgoing, [
            WireMessage(objectID: xdgSurface, opcode: 4, arguments: [.uint(7)]),
            WireMessage(objectID: shm, opcode: 0, arguments: [.newID(pool), .fd(42), .int(32)]),
            WireMessage(objectID: pool, opcode: 0, arguments: [.newID(buffer), .int(0), .int(4), .int(2), .int(16), .uint(0)]),
            WireMessage(objectID: pool, opcode: 1),
            WireMessage(objectID: surface, opcode: 1, arguments: [.object(buffer), .int(0), .int(0)]),
            WireMessage(objectID: surface, opcode: 2, arguments: [.int(0), .int(0), .int(4), .int(2)]),
            WireMessage(objectID: surface, opcode: 6),
        ])
        XCTAssertEqual(session.events, [.shown])
        XCTAssertEqual(session.phase, .shown)
        session.outgoing = []
        try session.handle(WireMessage(objectID: xdgSurface, opcode: 0, arguments: [.uint(8)]))
        XCTAssertEqual(session.outgoing, [WireMessage(objectID: xdgSurface, opcode: 4, arguments: [.uint(8)]), WireMessage(objectID: surface, opcode: 6)])
        try session.handle(WireMessage(objectID: wmBase, opcode: 0, arguments: [.uint(99)]))
        XCTAssertEqual(session.outgoing.last, WireMessage(objectID: wmBase, opcode: 3, arguments: [.uint(99)]), "a ping is answered")
    }

    func testAPressOnTheHandleStartsADragThatFinishesAsAMoveOnlyAfterDndFinished() throws {
        var session = try shown(handle)
        // A press elsewhere (the pointer is on no surface of ours) starts nothing.
        try session.handle(WireMessage(objectID: pointer, opcode: 3, arguments: [.uint(20), .uint(0), .uint(0x110), .uint(1)]))
        XCTAssertEqual(session.outgoing, [])
        try session.handle(WireMessage(objectID: pointer, opcode: 0, arguments: [.uint(21), .object(surface), .fixed(WireFixed(2)), .fixed(WireFixed(1))]))
        try session.handle(WireMessage(objectID: pointer, opcode: 3, arguments: [.uint(22), .uint(0), .uint(0x111), .uint(1)]))
        XCTAssertEqual(session.outgoing, [], "the right button starts nothing")
        try session.handle(WireMessage(objectID: pointer, opcode: 3, arguments: [.uint(23), .uint(0), .uint(0x110), .uint(1)]))
        let source: UInt32 = 17
        XCTAssertEqual(session.outgoing, [
            WireMessage(objectID: manager, opcode: 0, arguments: [.newID(source)]),
            WireMessage(objectID: source, opcode: 0, arguments: [.string("image/png")]),
            WireMessage(objectID: source, opcode: 0, arguments: [.string("text/uri-list")]),
            WireMessage(objectID: source, opcode: 2, arguments: [.uint(3)]),
            WireMessage(objectID: device, opcode: 0, arguments: [.object(source), .object(surface), .object(0), .uint(23)]),
        ])
        XCTAssertEqual(session.events, [.dragStarted])
        session.outgoing = []
        session.events = []
        try session.handle(WireMessage(objectID: pointer, opcode: 3, arguments: [.uint(24), .uint(0), .uint(0x110), .uint(1)]))
        XCTAssertEqual(session.outgoing, [], "no second drag while one is in flight")

        try session.handle(WireMessage(objectID: source, opcode: 0, arguments: [.string("image/png")]))
        try session.handle(WireMessage(objectID: source, opcode: 5, arguments: [.uint(2)]))
        try session.handle(WireMessage(objectID: source, opcode: 3))
        XCTAssertEqual(session.events, [.dropPerformed(.move)])
        let asked = descriptor(), foreign = descriptor()
        try session.handle(WireMessage(objectID: source, opcode: 1, arguments: [.string("image/png"), .fd(asked)]))
        try session.handle(WireMessage(objectID: source, opcode: 1, arguments: [.string("application/x-never-offered"), .fd(foreign)]))
        XCTAssertEqual(session.events.last, .send(mimeType: "image/png", descriptor: asked))
        XCTAssertFalse(isOpen(foreign), "a send of a type never offered is answered by closing its pipe")
        close(asked)
        try session.handle(WireMessage(objectID: source, opcode: 4))
        XCTAssertEqual(session.events.last, .dragEnded(.finished(.move), byEscape: false))
        XCTAssertEqual(session.outgoing, [WireMessage(objectID: source, opcode: 1)], "the finished drag's source is destroyed")
        // A send for the destroyed source still in flight: its pipe is closed, not leaked.
        let late = descriptor()
        try session.handle(WireMessage(objectID: source, opcode: 1, arguments: [.string("image/png"), .fd(late)]))
        XCTAssertFalse(isOpen(late))
    }

    func testEscEndsADragInFlightAndOtherwiseAsksToCancel() throws {
        var session = try shown(handle)
        let keymap = descriptor()
        try session.handle(WireMessage(objectID: keyboard, opcode: 0, arguments: [.uint(1), .fd(keymap), .uint(10)]))
        XCTAssertFalse(isOpen(keymap), "the keymap's descriptor is closed: Esc needs no keymap")
        try session.handle(WireMessage(objectID: keyboard, opcode: 1, arguments: [.uint(2), .object(surface), .array([])]))
        try session.handle(WireMessage(objectID: keyboard, opcode: 3, arguments: [.uint(3), .uint(0), .uint(1), .uint(1)]))
        XCTAssertEqual(session.events, [.escape])

        try session.handle(WireMessage(objectID: pointer, opcode: 0, arguments: [.uint(4), .object(surface), .fixed(WireFixed(1)), .fixed(WireFixed(1))]))
        try session.handle(WireMessage(objectID: pointer, opcode: 3, arguments: [.uint(5), .uint(0), .uint(0x110), .uint(1)]))
        session.outgoing = []
        session.escape()
        XCTAssertEqual(session.outgoing, [WireMessage(objectID: 17, opcode: 1)])
        XCTAssertEqual(session.events.last, .dragEnded(.cancelled, byEscape: true))
    }

    func testOurOwnDragOverTheHandleIsRefusedAndItsOfferKeptUntilLeave() throws {
        var session = try shown(handle)
        try session.handle(WireMessage(objectID: device, opcode: 0, arguments: [.newID(offer)]))
        try session.handle(WireMessage(objectID: offer, opcode: 0, arguments: [.string("image/png")]))
        try session.handle(WireMessage(objectID: offer, opcode: 1, arguments: [.uint(3)]))
        try session.handle(WireMessage(objectID: device, opcode: 1, arguments: [.uint(30), .object(surface), .fixed(WireFixed(1)), .fixed(WireFixed(1)), .object(offer)]))
        // A drag offer destroyed while its drag is over the surface cancels the drag (wlroots).
        XCTAssertEqual(session.outgoing, [
            WireMessage(objectID: offer, opcode: 0, arguments: [.uint(30), .string(nil)]),
            WireMessage(objectID: offer, opcode: 4, arguments: [.uint(0), .uint(0)]),
        ])
        try session.handle(WireMessage(objectID: device, opcode: 2))
        XCTAssertEqual(session.outgoing.last, WireMessage(objectID: offer, opcode: 2))
        XCTAssertEqual(session.events, [])
    }

    func testADropIntoTheZoneIsHeldReadAndAnsweredCopyWhenTheDestinationCopiedAMove() throws {
        var session = try shown(zone)
        try session.handle(WireMessage(objectID: device, opcode: 0, arguments: [.newID(offer)]))
        for type in ["text/uri-list", "image/png", "DELETE"] {
            try session.handle(WireMessage(objectID: offer, opcode: 0, arguments: [.string(type)]))
        }
        try session.handle(WireMessage(objectID: offer, opcode: 1, arguments: [.uint(3)]))
        try session.handle(WireMessage(objectID: device, opcode: 1, arguments: [.uint(40), .object(surface), .fixed(WireFixed(5)), .fixed(WireFixed(5)), .object(offer)]))
        XCTAssertEqual(session.outgoing, [
            WireMessage(objectID: offer, opcode: 0, arguments: [.uint(40), .string("image/png")]),
            WireMessage(objectID: offer, opcode: 4, arguments: [.uint(3), .uint(2)]),
        ])
        try session.handle(WireMessage(objectID: offer, opcode: 2, arguments: [.uint(2)]))
        try session.handle(WireMessage(objectID: device, opcode: 4))
        let drop = SurfaceSession.Drop(types: ["text/uri-list", "image/png", "DELETE"], chosen: "image/png", operation: .move)
        XCTAssertEqual(session.events, [.dropped(drop)])
        XCTAssertEqual(session.heldDrop, drop)
        // The leave after a drop lets nothing go: the drop is held.
        session.outgoing = []
        try session.handle(WireMessage(objectID: device, opcode: 2))
        XCTAssertEqual(session.outgoing, [])

        try session.receive("text/uri-list", into: 77)
        XCTAssertEqual(session.outgoing, [WireMessage(objectID: offer, opcode: 1, arguments: [.string("text/uri-list"), .fd(77)])])
        XCTAssertThrowsError(try session.receive("application/x-not-offered", into: 78)) {
            XCTAssertEqual($0 as? WaylandError, .dropNotHeld(mimeType: "application/x-not-offered"))
        }
        session.outgoing = []
        session.finishDrop(performed: .copy)
        XCTAssertEqual(session.outgoing, [
            WireMessage(objectID: offer, opcode: 4, arguments: [.uint(1), .uint(1)]),
            WireMessage(objectID: offer, opcode: 3),
            WireMessage(objectID: offer, opcode: 2),
        ], "a copy of a move says copy before finishing, so the source keeps its original")
        XCTAssertNil(session.heldDrop)
        XCTAssertThrowsError(try session.receive("image/png", into: 79), "nothing is held once answered")
    }

    func testAFailedDropIsOnlyLetGoOf() throws {
        var session = try shown(zone)
        try session.handle(WireMessage(objectID: device, opcode: 0, arguments: [.newID(offer)]))
        try session.handle(WireMessage(objectID: offer, opcode: 0, arguments: [.string("image/png")]))
        try session.handle(WireMessage(objectID: device, opcode: 1, arguments: [.uint(1), .object(surface), .fixed(WireFixed(5)), .fixed(WireFixed(5)), .object(offer)]))
        try session.handle(WireMessage(objectID: offer, opcode: 2, arguments: [.uint(1)]))
        try session.handle(WireMessage(objectID: device, opcode: 4))
        session.outgoing = []
        session.finishDrop(performed: nil)
        XCTAssertEqual(session.outgoing, [WireMessage(objectID: offer, opcode: 2)], "no finish for a drop the destination never took")
    }

    func testAPeerFloodingOffersOrTypesIsBounded() throws {
        var session = try shown(zone)
        for index in 0..<SurfaceSession.maximumOffers {
            try session.handle(WireMessage(objectID: device, opcode: 0, arguments: [.newID(0xff00_0100 + UInt32(index))]))
        }
        XCTAssertThrowsError(try session.handle(WireMessage(objectID: device, opcode: 0, arguments: [.newID(0xff00_1000)])),
                             "offers announced without end are a broken compositor")
        var other = try shown(zone)
        try other.handle(WireMessage(objectID: device, opcode: 0, arguments: [.newID(offer)]))
        for index in 0..<(WaylandDropTarget.typeLimit + 50) {
            try other.handle(WireMessage(objectID: offer, opcode: 0, arguments: [.string("type/\(index)")]))
        }
        try other.handle(WireMessage(objectID: device, opcode: 1, arguments: [.uint(1), .object(surface), .fixed(WireFixed(5)), .fixed(WireFixed(5)), .object(offer)]))
        XCTAssertEqual(other.target.types.count, WaylandDropTarget.typeLimit)
        XCTAssertThrowsError(try other.handle(WireMessage(objectID: 0xff00_9999, opcode: 0, arguments: [.string("x")])),
                             "an event for an object we never had")
    }

    func testTheCompositorsCloseIsReportedAndCloseTakesTheWindowDown() throws {
        var session = try shown(zone)
        try session.handle(WireMessage(objectID: toplevel, opcode: 1))
        XCTAssertEqual(session.events, [.closeRequested])
        session.close()
        XCTAssertEqual(session.outgoing, [
            WireMessage(objectID: toplevel, opcode: 0), WireMessage(objectID: xdgSurface, opcode: 0),
            WireMessage(objectID: surface, opcode: 0), WireMessage(objectID: buffer, opcode: 0),
        ])
        XCTAssertEqual(session.phase, .closed)
        session.outgoing = []
        session.close()
        XCTAssertEqual(session.outgoing, [], "closing twice sends nothing")
    }

    func testEscAfterTheDropCallsNothingOffWhileTheDestinationReads() throws {
        var session = try shown(handle)
        try session.handle(WireMessage(objectID: pointer, opcode: 0, arguments: [.uint(4), .object(surface), .fixed(WireFixed(1)), .fixed(WireFixed(1))]))
        try session.handle(WireMessage(objectID: pointer, opcode: 3, arguments: [.uint(5), .uint(0), .uint(0x110), .uint(1)]))
        try session.handle(WireMessage(objectID: 17, opcode: 5, arguments: [.uint(1)]))
        try session.handle(WireMessage(objectID: 17, opcode: 3))
        session.outgoing = []
        session.events = []
        session.escape()
        XCTAssertEqual(session.outgoing, [], "the source stays: the destination is reading")
        XCTAssertEqual(session.events, [])
        try session.handle(WireMessage(objectID: 17, opcode: 4))
        XCTAssertEqual(session.events, [.dragEnded(.finished(.copy), byEscape: false)])
    }

    func testAnotherDragWhileADropIsHeldIsRefusedAndLetGoOfAtLeave() throws {
        var session = try shown(zone)
        try session.handle(WireMessage(objectID: device, opcode: 0, arguments: [.newID(offer)]))
        try session.handle(WireMessage(objectID: offer, opcode: 0, arguments: [.string("image/png")]))
        try session.handle(WireMessage(objectID: device, opcode: 1, arguments: [.uint(1), .object(surface), .fixed(WireFixed(5)), .fixed(WireFixed(5)), .object(offer)]))
        try session.handle(WireMessage(objectID: offer, opcode: 2, arguments: [.uint(1)]))
        try session.handle(WireMessage(objectID: device, opcode: 4))
        try session.handle(WireMessage(objectID: device, opcode: 2))
        // 100 more drags pass over the zone while the first drop is delivered: each refused,
        // each offer let go of at its leave (none piles up towards the limit of offers).
        for index in 0..<100 {
            let next = 0xff00_0200 + UInt32(index)
            session.outgoing = []
            try session.handle(WireMessage(objectID: device, opcode: 0, arguments: [.newID(next)]))
            try session.handle(WireMessage(objectID: next, opcode: 0, arguments: [.string("image/png")]))
            try session.handle(WireMessage(objectID: device, opcode: 1, arguments: [.uint(9), .object(surface), .fixed(WireFixed(5)), .fixed(WireFixed(5)), .object(next)]))
            try session.handle(WireMessage(objectID: device, opcode: 2))
            XCTAssertEqual(session.outgoing, [
                WireMessage(objectID: next, opcode: 0, arguments: [.uint(9), .string(nil)]),
                WireMessage(objectID: next, opcode: 4, arguments: [.uint(0), .uint(0)]),
                WireMessage(objectID: next, opcode: 2),
            ])
        }
        XCTAssertNotNil(session.heldDrop, "the first drop is still held")
        try session.receive("image/png", into: 5)
        XCTAssertEqual(session.outgoing.last, WireMessage(objectID: offer, opcode: 1, arguments: [.string("image/png"), .fd(5)]))
    }

    func testAHandleOffersOnlyTypesACompositorTakes() throws {
        let long = String(repeating: "x", count: SourceLimits.maxMIMETypeLength + 1)
        let session = try SurfaceSession(role: .dragHandle(types: ["image/png", "", long, "image/png", "text/plain"], actions: [.copy]), picture: picture, memory: 1)
        guard case let .dragHandle(types, _) = session.role else { return XCTFail("\(session.role)") }
        XCTAssertEqual(types, ["image/png", "text/plain"])
    }
}

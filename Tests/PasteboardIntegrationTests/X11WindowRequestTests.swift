import Foundation
import PasteboardX11
import XCTest

/// The drag handle's and drop zone's requests against a real Xvfb: a server that refuses a
/// wrong length or layout with an X error, and answers with the events and replies our decoders
/// read. Nothing here is the bridge's I/O: the test sends the pure requests itself.
final class X11WindowRequestTests: XvfbTestCase {
    private func next(_ connection: X11Connection, _ what: String, where matches: (X11Event) -> Bool) throws -> X11Event {
        try connection.nextEvent(deadline: X11Deadline(after: .seconds(10)), what: what, where: matches)
    }

    /// One pixel of `window` (GetImage): four bytes, blue, green, red, unused.
    private func pixel(_ connection: X11Connection, _ window: WindowID, x: Int16, y: Int16) throws -> [UInt8] {
        try X11Reply.image(try connection.roundTrip(.getImage(drawable: window, x: x, y: y, width: 1, height: 1)), width: 1, height: 1)
    }

    func testAWindowIsCreatedMappedDrawnMovedGrabbedAndFoundUnderThePointer() throws {
        let connection = try connect()
        let root = connection.setup.root
        let window = WindowID(try connection.allocateID())
        try connection.send(.createWindow(window, parent: root, x: 0, y: 0, width: 640, height: 480, attributes: WindowAttributes(
            backgroundPixel: 0x0000_00ff, borderPixel: 0, overrideRedirect: true,
            eventMask: EventMask.exposure | EventMask.structureNotify | EventMask.buttonPress | EventMask.enterWindow)))
        try connection.send(.mapWindow(window))
        guard case let .mapNotify(mapped) = try next(connection, "MapNotify", where: { if case .mapNotify = $0 { true } else { false } }) else { return XCTFail() }
        XCTAssertEqual(mapped.window, window)
        XCTAssertTrue(mapped.flag, "override-redirect")
        guard case let .expose(exposed) = try next(connection, "Expose", where: { if case .expose = $0 { true } else { false } }) else { return XCTFail() }
        XCTAssertEqual(exposed.window, window)

        // 640 × 480 at four bytes a pixel is 1.2 MB: five requests under the core maximum.
        let gc = GraphicsContextID(try connection.allocateID())
        try connection.send(.createGC(gc, drawable: window, values: GraphicsContextValues(foreground: 0, graphicsExposures: false)))
        var pixels = [UInt8](repeating: 0, count: 640 * 480 * 4)
        for row in 0..<480 {
            for column in 0..<640 {
                let offset = (row * 640 + column) * 4
                pixels[offset] = UInt8(column & 0xff)  // blue
                pixels[offset + 1] = UInt8(row & 0xff)  // green
                pixels[offset + 2] = UInt8(row >> 8)  // red
            }
        }
        let bands = try X11Request.putImage(drawable: window, gc: gc, x: 0, y: 0, width: 640, height: 480, pixels: pixels, maximumRequestBytes: connection.maximumRequestBytes)
        XCTAssertEqual(bands.count, 5)
        for band in bands { try connection.send(band) }
        try connection.sync()
        // The first and last rows of a band and of the next one, and the last pixel.
        for (x, y): (Int16, Int16) in [(0, 0), (5, 101), (6, 102), (639, 479), (300, 204), (301, 205)] {
            XCTAssertEqual(try pixel(connection, window, x: x, y: y), [UInt8(Int(x) & 0xff), UInt8(Int(y) & 0xff), UInt8(Int(y) >> 8), 0], "(\(x), \(y))")
        }
        // With BIG-REQUESTS the whole canvas is one request in the extended form.
        let big = try connection.enableBigRequests()
        XCTAssertGreaterThan(big, 65535 * 4)
        for index in pixels.indices where index % 4 == 3 { pixels[index - 1] = 0x80 }  // red 0x80 everywhere
        let whole = try X11Request.putImage(drawable: window, gc: gc, x: 0, y: 0, width: 640, height: 480, pixels: pixels, maximumRequestBytes: big)
        XCTAssertEqual(whole.count, 1)
        try connection.send(whole[0])
        try connection.sync()
        XCTAssertEqual(try pixel(connection, window, x: 639, y: 479), [0x7f, 0xdf, 0x80, 0], "639 and 479 in blue and green")
        try connection.send(.freeGC(gc))

        try connection.send(.configureWindow(window, WindowChanges(x: 10, y: 20, width: 300, height: 200, stackMode: .above)))
        guard case let .configureNotify(configured) = try next(connection, "ConfigureNotify", where: { if case .configureNotify = $0 { true } else { false } }) else { return XCTFail() }
        XCTAssertEqual([configured.x, configured.y], [10, 20])
        XCTAssertEqual([configured.width, configured.height], [300, 200])
        XCTAssertTrue(configured.overrideRedirect)

        let tree = try X11Reply.queryTree(try connection.roundTrip(.queryTree(root)))
        XCTAssertEqual(tree.root, root)
        XCTAssertEqual(tree.parent, .none)
        XCTAssertEqual(tree.children.last, window, "raised above every other child")
        let under = try X11Reply.translateCoordinates(try connection.roundTrip(.translateCoordinates(from: root, to: root, x: 15, y: 25)))
        XCTAssertEqual(under, TranslatedPoint(sameScreen: true, child: window, x: 15, y: 25))
        let inside = try X11Reply.translateCoordinates(try connection.roundTrip(.translateCoordinates(from: root, to: window, x: 15, y: 25)))
        XCTAssertEqual([inside.x, inside.y], [5, 5])
        let pointer = try X11Reply.queryPointer(try connection.roundTrip(.queryPointer(root)))
        XCTAssertTrue(pointer.sameScreen)
        XCTAssertEqual(pointer.root, root)

        let grab = try connection.roundTrip(.grabPointer(window, eventMask: EventMask.buttonRelease | EventMask.pointerMotion))
        XCTAssertEqual(try X11Reply.grabStatus(grab), .success)
        XCTAssertEqual(try X11Reply.grabStatus(try connection.roundTrip(.grabKeyboard(window))), .success)
        try connection.send(.ungrabKeyboard())
        try connection.send(.ungrabPointer())

        // XdndAware as a target announces it, read back as a source reads it.
        let names = XdndAtoms.names
        var interned: [Atom] = []
        for name in names { interned.append(try X11Reply.internAtom(try connection.roundTrip(.internAtom(name)))) }
        let atoms = try XdndAtoms(interned: interned)
        try connection.send(atoms.announceAware(on: window))
        let aware = try X11Reply.getProperty(try connection.roundTrip(atoms.readAware(of: window)))
        XCTAssertEqual(atoms.version(fromAware: aware), .newest)
        try connection.send(atoms.typeList(on: window, types: [.string, .atom, .window, .integer]))
        let list = try X11Reply.getProperty(try connection.roundTrip(atoms.readTypeList(of: window)))
        XCTAssertEqual(atoms.types(fromTypeList: list), [.string, .atom, .window, .integer])

        // Another client's ClientMessage reaches the window's creator, decoded.
        let peer = try connect()
        let message = try ClientMessage(window: window, type: atoms.position, data: [0x0040_0001, 0, 0x000a_0014, 0, atoms.actionCopy.rawValue])
        try peer.send(.sendEvent(message, to: window))
        try peer.sync()
        let received = try next(connection, "the ClientMessage", where: { if case .clientMessage = $0 { true } else { false } })
        XCTAssertEqual(received, .clientMessage(message))

        try connection.send(.unmapWindow(window))
        guard case let .unmapNotify(unmapped) = try next(connection, "UnmapNotify", where: { if case .unmapNotify = $0 { true } else { false } }) else { return XCTFail() }
        XCTAssertEqual(unmapped.window, window)
        try connection.send(.destroyWindow(window))
        try connection.sync()
    }

    /// The search for the window a drag is over, answered by the server: a client top-level
    /// (WM_STATE, as a window manager would set it) with XdndAware under a point, one without
    /// beside it, the bare root elsewhere, and a proxy followed.
    func testTheWindowUnderAPointIsFoundAsADragSourceFindsIt() throws {
        let connection = try connect()
        let root = connection.setup.root
        let atoms = try XdndAtoms(interned: try connection.internAtoms(XdndAtoms.names))
        let wmState = try connection.atom("WM_STATE")
        func client(x: Int16, aware: Bool) throws -> WindowID {
            let window = WindowID(try connection.allocateID())
            try connection.send(.createWindow(window, parent: root, x: x, y: 100, width: 200, height: 150,
                                              attributes: WindowAttributes(backgroundPixel: 0, borderPixel: 0, overrideRedirect: true)))
            try connection.send(.changeProperty(window: window, property: wmState, type: wmState, items32: [1, 0]))
            if aware { try connection.send(try atoms.announceAware(on: window)) }
            try connection.send(.mapWindow(window))
            return window
        }
        let target = try client(x: 100, aware: true)
        let plain = try client(x: 400, aware: false)
        try connection.sync()
        let lookup = X11WindowLookup(connection: connection, root: root, atoms: atoms, wmState: wmState)
        let found = try XdndTargetSearch.window(underRootX: 150, y: 150, root: root, lookup: lookup)
        XCTAssertEqual(found?.window, target)
        XCTAssertEqual(found?.awareVersion, 5)
        XCTAssertNil(found?.proxy)
        let beside = try XdndTargetSearch.window(underRootX: 450, y: 150, root: root, lookup: lookup)
        XCTAssertEqual(beside?.window, plain)
        XCTAssertNil(beside?.version, "a client without XdndAware takes no drops")
        XCTAssertNil(try XdndTargetSearch.window(underRootX: 10, y: 10, root: root, lookup: lookup), "over the bare root")
        XCTAssertNil(try XdndTargetSearch.window(underRootX: 150, y: 150, root: root, ignoring: [target], lookup: lookup),
                     "our own handle is looked through")

        let proxy = WindowID(try connection.allocateID())
        try connection.send(.createInputOnlyWindow(proxy, parent: root, eventMask: 0))
        try connection.send(.changeProperty(window: target, property: atoms.proxy, type: .window, items32: [proxy.rawValue]))
        try connection.sync()
        XCTAssertEqual(try XdndTargetSearch.window(underRootX: 150, y: 150, root: root, lookup: lookup)?.proxy, proxy)
    }
}

import PasteboardX11
import XCTest

/// The requests a drag handle and a drop zone make, byte for byte as the protocol spec's
/// "Encoding" section lays them out, and every out-of-range argument refused before a byte is sent.
final class WindowRequestEncodingTests: XCTestCase {
    private let window = WindowID(0x0020_0001)
    private let root = WindowID(0x0000_0536)
    private let gc = GraphicsContextID(0x0020_0002)

    private func le16(_ value: UInt16) -> [UInt8] { WireBytes.le16(value) }
    private func le32(_ value: UInt32) -> [UInt8] { WireBytes.le32(value) }

    func testCreateWindowOfClassInputOutputWithItsValueListInMaskOrder() throws {
        // Given out of order, the values go in the order of their bits: background-pixel (0x2),
        // border-pixel (0x8), override-redirect (0x200), event-mask (0x800).
        let attributes = WindowAttributes(
            backgroundPixel: 0x00ff_ffff, borderPixel: 0, overrideRedirect: true,
            eventMask: EventMask.buttonPress | EventMask.buttonRelease | EventMask.exposure)
        let create = try X11Request.createWindow(window, parent: root, x: 10, y: -20, width: 200, height: 100, borderWidth: 1, attributes: attributes)
        XCTAssertEqual(create.bytes, [1, 0, 12, 0] + le32(0x0020_0001) + le32(0x536)
            + [10, 0, 0xec, 0xff] + [200, 0, 100, 0] + [1, 0, 1, 0] + le32(0) + le32(0xa0a)
            + le32(0x00ff_ffff) + le32(0) + le32(1) + le32(0x800c))
        XCTAssertFalse(create.expectsReply)
        XCTAssertEqual(create.name, "CreateWindow")

        // A depth and visual of its own need a colormap (0x2000); a cursor is 0x4000.
        let argb = try X11Request.createWindow(window, parent: root, x: 0, y: 0, width: 1, height: 1, depth: 32, visual: 0x21,
                                               attributes: WindowAttributes(saveUnder: false, colormap: 0x99, cursor: 0x77))
        XCTAssertEqual(argb.bytes, [1, 32, 11, 0] + le32(0x0020_0001) + le32(0x536) + [0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0]
            + le32(0x21) + le32(0x6400) + le32(0) + le32(0x99) + le32(0x77))
        // No attributes: an empty value list.
        XCTAssertEqual(try X11Request.createWindow(window, parent: root, x: 0, y: 0, width: 2, height: 3).bytes,
                       [1, 0, 8, 0] + le32(0x0020_0001) + le32(0x536) + [0, 0, 0, 0, 2, 0, 3, 0, 0, 0, 1, 0] + le32(0) + le32(0))
    }

    func testCreateWindowRefusesWhatTheServerWouldAnswerWithBadValue() {
        XCTAssertThrowsError(try X11Request.createWindow(window, parent: root, x: 0, y: 0, width: 0, height: 10), "no width")
        XCTAssertThrowsError(try X11Request.createWindow(window, parent: root, x: 0, y: 0, width: 10, height: 0), "no height")
        XCTAssertThrowsError(try X11Request.createWindow(window, parent: root, x: 0, y: 0, width: 10, height: 10,
                                                         attributes: WindowAttributes(eventMask: 0x0200_0000)), "an unused event bit")
    }

    func testMapUnmapAndTheTreeRequests() {
        XCTAssertEqual(X11Request.mapWindow(window).bytes, [8, 0, 2, 0] + le32(0x0020_0001))
        XCTAssertEqual(X11Request.unmapWindow(window).bytes, [10, 0, 2, 0] + le32(0x0020_0001))
        let tree = X11Request.queryTree(root)
        XCTAssertEqual(tree.bytes, [15, 0, 2, 0] + le32(0x536))
        XCTAssertTrue(tree.expectsReply)
        let translate = X11Request.translateCoordinates(from: root, to: window, x: 100, y: -1)
        XCTAssertEqual(translate.bytes, [40, 0, 4, 0] + le32(0x536) + le32(0x0020_0001) + [100, 0, 0xff, 0xff])
        XCTAssertTrue(translate.expectsReply)
    }

    func testConfigureWindowSendsOnlyWhatChangesSignExtended() throws {
        let move = try X11Request.configureWindow(window, WindowChanges(x: 5, y: -1, stackMode: .above))
        XCTAssertEqual(move.bytes, [12, 0, 6, 0] + le32(0x0020_0001) + [0x43, 0, 0, 0] + le32(5) + le32(0xffff_ffff) + le32(0))
        let all = try X11Request.configureWindow(window, WindowChanges(
            x: -300, y: 2, width: 640, height: 480, borderWidth: 3, sibling: WindowID(0x99), stackMode: .opposite))
        XCTAssertEqual(all.bytes, [12, 0, 10, 0] + le32(0x0020_0001) + [0x7f, 0, 0, 0]
            + le32(UInt32(bitPattern: -300)) + le32(2) + le32(640) + le32(480) + le32(3) + le32(0x99) + le32(4))
        XCTAssertFalse(all.expectsReply)
        XCTAssertThrowsError(try X11Request.configureWindow(window, WindowChanges()), "nothing to change")
        XCTAssertThrowsError(try X11Request.configureWindow(window, WindowChanges(width: 0)), "no width")
        XCTAssertThrowsError(try X11Request.configureWindow(window, WindowChanges(height: 0)), "no height")
        XCTAssertThrowsError(try X11Request.configureWindow(window, WindowChanges(sibling: WindowID(3))), "a sibling without a stack mode")
    }

    func testGraphicsContexts() {
        let values = GraphicsContextValues(foreground: 0x00ff_0000, graphicsExposures: false)
        XCTAssertEqual(X11Request.createGC(gc, drawable: window, values: values).bytes,
                       [55, 0, 6, 0] + le32(0x0020_0002) + le32(0x0020_0001) + le32(0x10004) + le32(0x00ff_0000) + le32(0))
        XCTAssertEqual(X11Request.createGC(gc, drawable: window, values: GraphicsContextValues(foreground: 1, background: 2, graphicsExposures: true)).bytes,
                       [55, 0, 7, 0] + le32(0x0020_0002) + le32(0x0020_0001) + le32(0x1000c) + le32(1) + le32(2) + le32(1))
        XCTAssertEqual(X11Request.createGC(gc, drawable: window).bytes, [55, 0, 4, 0] + le32(0x0020_0002) + le32(0x0020_0001) + le32(0))
        XCTAssertEqual(X11Request.freeGC(gc).bytes, [60, 0, 2, 0] + le32(0x0020_0002))
    }

    func testPutImageOfASmallImageIsOneZPixmapRequest() throws {
        let pixels: [UInt8] = Array(1...16)
        let requests = try X11Request.putImage(drawable: window, gc: gc, x: 3, y: -4, width: 2, height: 2, pixels: pixels, maximumRequestBytes: 4096)
        XCTAssertEqual(requests.count, 1)
        XCTAssertEqual(requests[0].bytes, [72, 2, 10, 0] + le32(0x0020_0001) + le32(0x0020_0002)
            + [2, 0, 2, 0, 3, 0, 0xfc, 0xff, 0, 24, 0, 0] + pixels)
        XCTAssertFalse(requests[0].expectsReply)
        let argb = try X11Request.putImage(drawable: window, gc: gc, x: 0, y: 0, width: 1, height: 1, depth: 32, pixels: [1, 2, 3, 4], maximumRequestBytes: 4096)
        XCTAssertEqual(argb[0].bytes[21], 32, "the depth")
    }

    /// A canvas larger than one request goes as bands of whole rows, each at its own dst-y, each
    /// within the maximum, together exactly the image.
    func testPutImageSplitsByRowsWithinTheMaximumRequestLength() throws {
        let width: UInt16 = 100, height: UInt16 = 25  // rows of 400 bytes; (4096 - 24) / 400 = 10 rows a request
        let pixels = (0..<(Int(width) * Int(height) * 4)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let requests = try X11Request.putImage(drawable: window, gc: gc, x: 7, y: 50, width: width, height: height, pixels: pixels, maximumRequestBytes: 4096)
        XCTAssertEqual(requests.count, 3)
        var data: [UInt8] = []
        for (index, request) in requests.enumerated() {
            let rows: UInt16 = index < 2 ? 10 : 5
            let bytes = request.bytes
            XCTAssertLessThanOrEqual(bytes.count, 4096)
            XCTAssertEqual(X11Request.announcedBytes(bytes), bytes.count)
            XCTAssertEqual(Array(bytes.prefix(4)), [72, 2] + le16(UInt16(6 + Int(rows) * 100)))
            XCTAssertEqual(Array(bytes[12..<24]), le16(100) + le16(rows) + [7, 0] + le16(UInt16(50 + 10 * index)) + [0, 24, 0, 0])
            data += bytes[24...]
        }
        XCTAssertEqual(data, pixels, "the bands are the image, in order, nothing lost or added")

        // Exactly one band's worth fits one request.
        let exact = try X11Request.putImage(drawable: window, gc: gc, x: 0, y: 0, width: 100, height: 10, pixels: Array(pixels.prefix(4000)), maximumRequestBytes: 4024)
        XCTAssertEqual(exact.count, 1)
        XCTAssertEqual(exact[0].byteCount, 4024)
    }

    /// Under the core maximum (65535 units) a 1024×1024 canvas takes 17 requests; with
    /// BIG-REQUESTS' maximum it takes one, in the extended form.
    func testPutImageOfAMebipixelCanvas() throws {
        let pixels = [UInt8](repeating: 0x5a, count: 1024 * 1024 * 4)
        let core = try X11Request.putImage(drawable: window, gc: gc, x: 0, y: 0, width: 1024, height: 1024, pixels: pixels, maximumRequestBytes: 65535 * 4)
        XCTAssertEqual(core.count, 17, "63 rows of 4096 bytes a request: 16 × 63 + 16")
        XCTAssertTrue(core.allSatisfy { $0.byteCount <= 65535 * 4 && $0.head[2...3] != [0, 0] })
        XCTAssertEqual(core.map(\.trailer.byteCount).reduce(0, +), pixels.count)
        XCTAssertEqual(Array(core[16].head[12..<20]), le16(1024) + le16(16) + [0, 0] + le16(1008))

        let big = try X11Request.putImage(drawable: window, gc: gc, x: 0, y: 0, width: 1024, height: 1024, pixels: pixels, maximumRequestBytes: 4_194_303 * 4)
        XCTAssertEqual(big.count, 1)
        XCTAssertEqual(Array(big[0].head.prefix(8)), [72, 2, 0, 0] + le32(UInt32((24 + pixels.count) / 4 + 1)))
        XCTAssertEqual(Array(big[0].head[8..<28]), le32(0x0020_0001) + le32(0x0020_0002) + le16(1024) + le16(1024) + [0, 0, 0, 0, 0, 24, 0, 0])
        XCTAssertEqual(big[0].byteCount, 28 + pixels.count)
        XCTAssertEqual(X11Request.announcedBytes(big[0].head), big[0].byteCount)
    }

    func testPutImageRefusesWhatItCannotSendWhole() {
        func put(width: UInt16 = 2, height: UInt16 = 2, y: Int16 = 0, depth: UInt8 = 24, bytes: Int? = nil, maximum: Int = 4096) throws {
            _ = try X11Request.putImage(drawable: window, gc: gc, x: 0, y: y, width: width, height: height, depth: depth,
                                        pixels: [UInt8](repeating: 0, count: bytes ?? Int(width) * Int(height) * 4), maximumRequestBytes: maximum)
        }
        XCTAssertThrowsError(try put(bytes: 15), "a byte short")
        XCTAssertThrowsError(try put(bytes: 17), "a byte over")
        XCTAssertThrowsError(try put(width: 0, bytes: 0), "no width")
        XCTAssertThrowsError(try put(height: 0, bytes: 0), "no height")
        XCTAssertThrowsError(try put(depth: 16), "two bytes a pixel")
        XCTAssertThrowsError(try put(width: 1019, height: 1), "a row of 4076 bytes does not fit 4096 with its 24 of header")
        XCTAssertNoThrow(try put(width: 1018, height: 1))
        XCTAssertThrowsError(try put(height: 2, y: 32767), "the second row's y is past INT16")
        XCTAssertNoThrow(try put(height: 1, y: 32767))
    }

    func testGrabsAndQueryPointer() throws {
        let grab = try X11Request.grabPointer(window, eventMask: EventMask.buttonRelease | EventMask.pointerMotion, time: 0x1234)
        XCTAssertEqual(grab.bytes, [26, 0, 6, 0] + le32(0x0020_0001) + [0x48, 0, 1, 1] + le32(0) + le32(0) + le32(0x1234))
        XCTAssertTrue(grab.expectsReply)
        let confined = try X11Request.grabPointer(window, ownerEvents: true, eventMask: 0x7ffc, pointerMode: .synchronous, keyboardMode: .asynchronous,
                                                  confineTo: root, cursor: 0x55, time: currentTime)
        XCTAssertEqual(confined.bytes, [26, 1, 6, 0] + le32(0x0020_0001) + [0xfc, 0x7f, 0, 1] + le32(0x536) + le32(0x55) + le32(0))
        XCTAssertThrowsError(try X11Request.grabPointer(window, eventMask: EventMask.keyPress), "a key event is no pointer event")
        XCTAssertThrowsError(try X11Request.grabPointer(window, eventMask: EventMask.exposure), "bit 0x8000 is unused in SETofPOINTEREVENT")
        XCTAssertThrowsError(try X11Request.grabPointer(window, eventMask: EventMask.propertyChange), "over 16 bits")
        XCTAssertEqual(X11Request.ungrabPointer(time: 9).bytes, [27, 0, 2, 0] + le32(9))

        let keyboard = X11Request.grabKeyboard(window, ownerEvents: true, time: 0x0102_0304)
        XCTAssertEqual(keyboard.bytes, [31, 1, 4, 0] + le32(0x0020_0001) + [4, 3, 2, 1] + [1, 1, 0, 0])
        XCTAssertTrue(keyboard.expectsReply)
        XCTAssertEqual(X11Request.ungrabKeyboard().bytes, [32, 0, 2, 0] + le32(0))
        let query = X11Request.queryPointer(root)
        XCTAssertEqual(query.bytes, [38, 0, 2, 0] + le32(0x536))
        XCTAssertTrue(query.expectsReply)
    }

    func testXdndPropertiesAndMessagesAsRequests() throws {
        let atoms = XdndFixtures.atoms
        XCTAssertEqual(try atoms.announceAware(on: window).bytes,
                       [18, 0, 7, 0] + le32(0x0020_0001) + le32(100) + le32(4) + [32, 0, 0, 0] + le32(1) + le32(5))
        XCTAssertEqual(try atoms.typeList(on: window, types: [Atom(500), Atom(501)]).bytes,
                       [18, 0, 8, 0] + le32(0x0020_0001) + le32(103) + le32(4) + [32, 0, 0, 0] + le32(2) + le32(500) + le32(501))
        XCTAssertThrowsError(try atoms.typeList(on: window, types: Array(repeating: Atom(500), count: 1025)))
        XCTAssertEqual(atoms.readAware(of: window).bytes, [20, 0, 6, 0] + le32(0x0020_0001) + le32(100) + le32(4) + le32(0) + le32(1))
        XCTAssertEqual(atoms.readTypeList(of: window).bytes, [20, 0, 6, 0] + le32(0x0020_0001) + le32(103) + le32(4) + le32(0) + le32(1024))
        XCTAssertEqual(try X11Request.changeProperty(.append, window: window, property: Atom(7), type: .window, items32: []).bytes,
                       [18, 2, 6, 0] + le32(0x0020_0001) + le32(7) + le32(33) + [32, 0, 0, 0] + le32(0))

        let envelope = XdndEnvelope(window: XdndFixtures.firstTarget, destination: WindowID(0x77), message: XdndFixtures.status(from: window, accepts: true))
        let message = envelope.message.clientMessage(window: envelope.window, atoms: atoms)
        let send = X11Request.sendEvent(message, to: envelope.destination)
        XCTAssertEqual(send.bytes, [25, 0, 11, 0] + le32(0x77) + le32(0) + envelope.encoded(atoms: atoms))
        XCTAssertEqual(send, try X11Request.sendEvent(destination: WindowID(0x77), event: message.encoded), "the same request as the raw form")
        XCTAssertEqual(WMState.read(of: window, wmState: Atom(300)).bytes, [20, 0, 6, 0] + le32(0x0020_0001) + le32(300) + le32(300) + le32(0) + le32(2))
    }
}

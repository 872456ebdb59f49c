import Foundation
import PasteboardDesktop
import PasteboardX11
import XCTest

/// The drag handle on a real Xvfb: `DragHandleDrawing` shown through `X11PictureWindow` is on
/// the screen pixel for pixel, kept inside the screen, found by its name, and drawn again when
/// another window that covered it goes away (the server keeps no copy of it).
final class X11PictureWindowTests: XvfbTestCase {
    /// The whole of `window` (GetImage): blue, green, red, unused a pixel.
    private func image(_ connection: X11Connection, _ window: WindowID, width: UInt16, height: UInt16) throws -> [UInt8] {
        try X11Reply.image(try connection.roundTrip(.getImage(drawable: window, x: 0, y: 0, width: width, height: height)), width: width, height: height)
    }

    /// The colour bytes of `pixels` (the fourth byte of each pixel is unused by depth 24).
    private func colours(_ pixels: [UInt8]) -> [UInt8] {
        pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
    }

    private func waitForExpose(_ connection: X11Connection, _ picture: X11PictureWindow) throws {
        var drawn = false
        while !drawn {
            let event = try connection.nextEvent(deadline: X11Deadline(after: .seconds(10)), what: "Expose of the handle") { _ in true }
            try picture.handle(event)
            if case let .expose(expose) = event, expose.window == picture.window, expose.count == 0 { drawn = true }
        }
        try connection.sync()
    }

    func testTheDragHandleIsShownPixelForPixelInsideTheScreenAndDrawnAgainWhenUncovered() throws {
        let connection = try connect()
        // A 2×2 preview: red, green, blue, white.
        let preview = RGBAImage(width: 2, height: 2, bytes: [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255])
        XCTAssertNotNil(preview)
        let drawing = DragHandleDrawing(
            items: [.init(title: "harbour.png", preview: preview), .init(title: "notes for the harbour trip")],
            caption: DragHandleDrawing.caption(count: 2, allowsMove: true))
        let canvas = drawing.draw()
        let pixels = canvas.littleEndianBytes
        // Asked for far past the screen's corner: placed so that all of it is on the screen.
        let picture = try X11PictureWindow(
            connection: connection, title: "Pasteboard: drag 2 items", x: 100_000, y: -50, width: canvas.width, height: canvas.height, pixels: pixels)
        try waitForExpose(connection, picture)

        let shown = try image(connection, picture.window, width: picture.width, height: picture.height)
        XCTAssertEqual(colours(shown), colours(pixels), "the handle on the screen is the drawing")
        XCTAssertTrue(Set(colours(shown)).count > 3, "not a blank window: the frame, text and preview have their colours")

        let root = connection.setup.root
        let width = Int16(connection.setup.rootWidth)
        let corner = try X11Reply.translateCoordinates(try connection.roundTrip(.translateCoordinates(from: root, to: root, x: width - 1, y: 0)))
        XCTAssertEqual(corner.child, picture.window, "at the top right corner of the screen")
        let inside = try X11Reply.translateCoordinates(try connection.roundTrip(.translateCoordinates(from: root, to: picture.window, x: width - 1, y: 0)))
        XCTAssertEqual([Int(inside.x), Int(inside.y)], [Int(picture.width) - 1, 0])

        let wmName = try connection.atom("WM_NAME")
        let name = try X11Reply.getProperty(try connection.roundTrip(.getProperty(window: picture.window, property: wmName, longLength: 64, delete: false)))
        XCTAssertEqual(String(decoding: name.data, as: UTF8.self), "Pasteboard: drag 2 items")

        // Another client's window over it, then gone: the server asks the handle to draw again.
        let peer = try connect()
        let cover = WindowID(try peer.allocateID())
        try peer.send(.createWindow(
            cover, parent: root, x: width - Int16(picture.width), y: 0, width: picture.width, height: picture.height,
            attributes: WindowAttributes(backgroundPixel: 0x00ff_00ff, overrideRedirect: true)))
        try peer.send(.mapWindow(cover))
        try peer.sync()
        try peer.send(.destroyWindow(cover))
        try peer.sync()
        try waitForExpose(connection, picture)
        XCTAssertEqual(colours(try image(connection, picture.window, width: picture.width, height: picture.height)), colours(pixels), "drawn again")

        // A new picture of the same size replaces it; one of another size is refused.
        let inverted = pixels.enumerated().map { $0.offset % 4 == 3 ? $0.element : 255 - $0.element }
        try picture.show(inverted)
        try connection.sync()
        XCTAssertEqual(colours(try image(connection, picture.window, width: picture.width, height: picture.height)), colours(inverted))
        XCTAssertThrowsError(try picture.show([0, 0, 0, 0]))
        XCTAssertThrowsError(try X11Reply.image(try connection.roundTrip(.getImage(drawable: picture.window, x: 0, y: 0, width: 2, height: 2)), width: 3, height: 2),
                             "a reply of another size than asked is refused")
        XCTAssertThrowsError(try X11Request.getImage(drawable: picture.window, x: 0, y: 0, width: 0, height: 1))
        picture.close()
        try connection.sync()
        let after = try X11Reply.translateCoordinates(try connection.roundTrip(.translateCoordinates(from: root, to: root, x: width - 1, y: 0)))
        XCTAssertNotEqual(after.child, picture.window, "closed: gone from the screen")
    }

    func testAPictureOfTheWrongSizeOrNoAreaIsRefusedBeforeAnyWindowIsMade() throws {
        let connection = try connect()
        XCTAssertThrowsError(try X11PictureWindow(connection: connection, title: "x", x: 0, y: 0, width: 2, height: 2, pixels: [0, 0, 0, 0]))
        XCTAssertThrowsError(try X11PictureWindow(connection: connection, title: "x", x: 0, y: 0, width: 0, height: 2, pixels: []))
        XCTAssertThrowsError(try X11PictureWindow(connection: connection, title: "x", x: 0, y: 0, width: 70_000, height: 1, pixels: []))
        let tree = try X11Reply.queryTree(try connection.roundTrip(.queryTree(connection.setup.root)))
        XCTAssertTrue(tree.children.isEmpty, "no window was left behind")
    }

    /// Esc cancels a drag: the handle finds the keycodes of Escape on the server's keyboard, and
    /// a real key press (xdotool, through XTEST like a keyboard) arrives under the handle's
    /// keyboard grab as a KeyPress of one of them.
    func testEscapeIsFoundOnTheKeyboardAndARealPressOfItReachesTheGrabbingHandle() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool") else { throw XCTSkip("xdotool is not installed (apt-get install xdotool)") }
        let connection = try connect()
        let escape = try connection.keycodes(for: .escape)
        XCTAssertFalse(escape.isEmpty, "Xvfb's keyboard has an Escape key")
        XCTAssertTrue(escape.allSatisfy { connection.setup.keycodes.contains($0) })
        let canvas = DragHandleDrawing(items: [.init(title: "a")], caption: DragHandleDrawing.caption(count: 1, allowsMove: false)).draw()
        let picture = try X11PictureWindow(connection: connection, title: "Pasteboard: drag 1 item", x: 0, y: 0, width: canvas.width, height: canvas.height, pixels: canvas.littleEndianBytes)
        try waitForExpose(connection, picture)
        XCTAssertEqual(try X11Reply.grabStatus(try connection.roundTrip(.grabKeyboard(picture.window))), .success)
        var environment = sandbox.environment()
        environment["DISPLAY"] = server!.display
        let typed = try runTool("/usr/bin/xdotool", ["key", "Escape"], environment: environment, in: sandbox)
        XCTAssertEqual(typed.status, 0, "xdotool: \(typed.stderr)")
        let event = try connection.nextEvent(deadline: X11Deadline(after: .seconds(10)), what: "the KeyPress of Escape") {
            if case .keyPress = $0 { true } else { false }
        }
        guard case let .keyPress(press) = event else { return XCTFail("\(event)") }
        XCTAssertTrue(escape.contains(press.detail), "keycode \(press.detail) is one of \(escape.sorted())")
        try connection.send(.ungrabKeyboard())
        picture.close()
    }

    func testAKeyboardMappingOfTheWrongLengthIsRefused() throws {
        func reply(perKeycode: UInt8, keysyms: [UInt32]) -> [UInt8] {
            var bytes: [UInt8] = [1, perKeycode, 0, 0] + withUnsafeBytes(of: UInt32(keysyms.count).littleEndian, Array.init) + [UInt8](repeating: 0, count: 24)
            for keysym in keysyms { bytes += withUnsafeBytes(of: keysym.littleEndian, Array.init) }
            return bytes
        }
        let good = try X11Reply.keyboardMapping(reply(perKeycode: 2, keysyms: [0, 0, 0xff1b, 0x61, 0, 0xff1b]), first: 8, count: 3)
        XCTAssertEqual(good.keycodes(for: .escape), [9, 10])
        XCTAssertThrowsError(try X11Reply.keyboardMapping(reply(perKeycode: 2, keysyms: [0, 0, 0]), first: 8, count: 3), "not whole keycodes")
        XCTAssertThrowsError(try X11Reply.keyboardMapping(reply(perKeycode: 1, keysyms: [0, 0, 0, 0]), first: 8, count: 3), "more keycodes than asked about")
        XCTAssertThrowsError(try X11Reply.keyboardMapping(reply(perKeycode: 0, keysyms: [0]), first: 8, count: 3), "keysyms with none a keycode")
        XCTAssertEqual(try X11Reply.keyboardMapping(reply(perKeycode: 4, keysyms: [0, 0, 0, 0xff1b]), first: 255, count: 1).keycodes(for: .escape), [255])
    }

    func testPlacementKeepsTheWholeWindowOnTheScreen() {
        XCTAssertEqual(pair(X11PictureWindow.place(x: 10, y: 20, width: 100, height: 50, screenWidth: 640, screenHeight: 480)), [10, 20])
        XCTAssertEqual(pair(X11PictureWindow.place(x: 600, y: 470, width: 100, height: 50, screenWidth: 640, screenHeight: 480)), [540, 430])
        XCTAssertEqual(pair(X11PictureWindow.place(x: -5, y: Int.min, width: 100, height: 50, screenWidth: 640, screenHeight: 480)), [0, 0])
        XCTAssertEqual(pair(X11PictureWindow.place(x: Int.max, y: 0, width: 10, height: 10, screenWidth: 70_000, screenHeight: 480)), [Int(Int16.max), 0])
        // Wider than the screen: its left edge on the screen's.
        XCTAssertEqual(pair(X11PictureWindow.place(x: 30, y: 0, width: 800, height: 10, screenWidth: 640, screenHeight: 480)), [0, 0])
    }

    private func pair(_ place: (x: Int16, y: Int16)) -> [Int] { [Int(place.x), Int(place.y)] }
}

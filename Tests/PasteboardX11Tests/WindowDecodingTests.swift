@testable import PasteboardX11
import XCTest

/// The events and replies a drag handle and a drop zone read, decoded from bytes laid out by
/// hand after the protocol spec's "Encoding" section, and every malformed variant refused
/// with an error instead of a trap.
final class WindowDecodingTests: XCTestCase {
    private func le16(_ value: UInt16) -> [UInt8] { WireBytes.le16(value) }
    private func i16(_ value: Int16) -> [UInt8] { WireBytes.i16(value) }
    private func le32(_ value: UInt32) -> [UInt8] { WireBytes.le32(value) }
    private func zeros(_ count: Int) -> [UInt8] { WireBytes.zeros(count) }
    private func reply(byte1: UInt8 = 0, fields: [UInt8], extra: [UInt8] = []) -> [UInt8] { WireBytes.reply(byte1: byte1, fields: fields, extra: extra) }

    /// A key, button or motion event: code, detail, then time, root, event, child, the two
    /// positions, state, same-screen and one unused byte.
    private func input(_ code: UInt8, detail: UInt8, state: UInt16 = 0, sameScreen: UInt8 = 1) -> [UInt8] {
        [code, detail] + le16(0x0102) + le32(0x0a0b_0c0d) + le32(0x536) + le32(0x0020_0001) + le32(0)
            + i16(640) + i16(-3) + i16(12) + i16(34) + le16(state) + [sameScreen, 0]
    }

    private func expectedInput(detail: UInt8, state: KeyButtonMask = []) -> X11Event.InputEvent {
        X11Event.InputEvent(detail: detail, pointer: X11Event.PointerSnapshot(
            time: 0x0a0b_0c0d, root: WindowID(0x536), event: WindowID(0x0020_0001), child: .none,
            rootX: 640, rootY: -3, eventX: 12, eventY: 34, state: state), sameScreen: true)
    }

    func testKeyButtonAndMotionEvents() throws {
        XCTAssertEqual(try X11Event.decode(input(2, detail: 9)[...]), .keyPress(expectedInput(detail: 9)), "Esc's keycode on evdev")
        XCTAssertEqual(try X11Event.decode(input(3, detail: 255)[...]), .keyRelease(expectedInput(detail: 255)))
        XCTAssertEqual(try X11Event.decode(input(4, detail: 1)[...]), .buttonPress(expectedInput(detail: 1)))
        XCTAssertEqual(try X11Event.decode(input(5, detail: 1, state: 0x0101)[...]), .buttonRelease(expectedInput(detail: 1, state: [.button1, .shift])))
        XCTAssertEqual(try X11Event.decode(input(6, detail: 0, state: 0x0100)[...]), .motionNotify(expectedInput(detail: 0, state: .button1)))
        XCTAssertEqual(try X11Event.decode(input(6 | 0x80, detail: 1)[...]), .motionNotify(expectedInput(detail: 1)), "a hint; the SendEvent bit ignored")
        guard case let .buttonPress(other) = try X11Event.decode(input(4, detail: 3, state: 0x6000, sameScreen: 0)[...]) else { return XCTFail() }
        XCTAssertFalse(other.sameScreen)
        XCTAssertEqual(other.pointer.state.rawValue, 0x6000, "XKB's group bits are kept, not refused")
    }

    func testMalformedInputEventsAreRefused() {
        XCTAssertThrowsError(try X11Event.decode(input(2, detail: 7)[...]), "keycodes start at 8")
        XCTAssertThrowsError(try X11Event.decode(input(3, detail: 0)[...]))
        XCTAssertThrowsError(try X11Event.decode(input(4, detail: 0)[...]), "button 0 is AnyButton, never pressed")
        XCTAssertThrowsError(try X11Event.decode(input(5, detail: 0)[...]))
        XCTAssertThrowsError(try X11Event.decode(input(6, detail: 2)[...]), "motion is Normal or Hint")
        XCTAssertThrowsError(try X11Event.decode(input(4, detail: 1, sameScreen: 2)[...]), "a BOOL of 2")
        for code: UInt8 in 2...6 {
            XCTAssertThrowsError(try X11Event.decode(input(code, detail: 9).prefix(31)), "short \(code)")
        }
    }

    private func crossing(_ code: UInt8, detail: UInt8, mode: UInt8, flags: UInt8) -> [UInt8] {
        [code, detail] + le16(1) + le32(77) + le32(0x536) + le32(0x0020_0001) + le32(0x0020_0005)
            + i16(-1) + i16(2) + i16(3) + i16(4) + le16(0x0004) + [mode, flags]
    }

    func testEnterAndLeave() throws {
        XCTAssertEqual(try X11Event.decode(crossing(7, detail: 3, mode: 0, flags: 3)[...]), .enterNotify(X11Event.CrossingEvent(
            detail: .nonlinear, pointer: X11Event.PointerSnapshot(
                time: 77, root: WindowID(0x536), event: WindowID(0x0020_0001), child: WindowID(0x0020_0005),
                rootX: -1, rootY: 2, eventX: 3, eventY: 4, state: .control),
            mode: .normal, focus: true, sameScreen: true)))
        guard case let .leaveNotify(leave) = try X11Event.decode(crossing(8, detail: 2, mode: 1, flags: 2)[...]) else { return XCTFail() }
        XCTAssertEqual(leave.detail, .inferior)
        XCTAssertEqual(leave.mode, .grab)
        XCTAssertFalse(leave.focus)
        XCTAssertTrue(leave.sameScreen)
        guard case let .leaveNotify(ungrab) = try X11Event.decode(crossing(8, detail: 4, mode: 2, flags: 0)[...]) else { return XCTFail() }
        XCTAssertEqual(ungrab.detail, .nonlinearVirtual)
        XCTAssertEqual(ungrab.mode, .ungrab)
        XCTAssertFalse(ungrab.sameScreen)

        XCTAssertThrowsError(try X11Event.decode(crossing(7, detail: 5, mode: 0, flags: 0)[...]), "detail 5")
        XCTAssertThrowsError(try X11Event.decode(crossing(7, detail: 0, mode: 3, flags: 0)[...]), "mode 3")
        XCTAssertThrowsError(try X11Event.decode(crossing(8, detail: 0, mode: 0, flags: 4)[...]), "a flag bit the spec does not define")
        XCTAssertThrowsError(try X11Event.decode(crossing(8, detail: 0, mode: 0, flags: 0).prefix(30)))
    }

    func testExposeConfigureMapAndUnmap() throws {
        let expose = [12, 0] + le16(1) + le32(0x0020_0001) + le16(10) + le16(20) + le16(300) + le16(40) + le16(2) + zeros(14)
        XCTAssertEqual(try X11Event.decode(expose[...]), .expose(.init(window: WindowID(0x0020_0001), x: 10, y: 20, width: 300, height: 40, count: 2)))
        XCTAssertThrowsError(try X11Event.decode(expose.prefix(31)))

        let configure = [22, 0] + le16(1) + le32(0x536) + le32(0x0020_0001) + le32(0x0040_0003)
            + i16(-5) + i16(600) + le16(200) + le16(100) + le16(1) + [1] + zeros(5)
        let configured = X11Event.ConfigureNotify(event: WindowID(0x536), window: WindowID(0x0020_0001), aboveSibling: WindowID(0x0040_0003),
                                                  x: -5, y: 600, width: 200, height: 100, borderWidth: 1, overrideRedirect: true)
        XCTAssertEqual(try X11Event.decode(configure[...]), .configureNotify(configured))
        XCTAssertEqual(try X11Event.decode(([22 | 0x80] + configure.dropFirst())[...]), .configureNotify(configured),
                       "a window manager's synthetic ConfigureNotify (ICCCM §4.1.5) is one too")
        var badOverride = configure
        badOverride[26] = 2
        XCTAssertThrowsError(try X11Event.decode(badOverride[...]))

        let map = [19, 0] + le16(1) + le32(0x536) + le32(0x0020_0001) + [1] + zeros(19)
        XCTAssertEqual(try X11Event.decode(map[...]), .mapNotify(.init(event: WindowID(0x536), window: WindowID(0x0020_0001), flag: true)))
        let unmap = [18, 0] + le16(1) + le32(0x0020_0001) + le32(0x0020_0001) + [0] + zeros(19)
        XCTAssertEqual(try X11Event.decode(unmap[...]), .unmapNotify(.init(event: WindowID(0x0020_0001), window: WindowID(0x0020_0001), flag: false)))
        var badMap = map
        badMap[12] = 0xff
        XCTAssertThrowsError(try X11Event.decode(badMap[...]))
        XCTAssertThrowsError(try X11Event.decode(unmap.prefix(12)))
    }

    func testClientMessagesOfFormat32GoToTheirDecoder() throws {
        let message = try ClientMessage(window: WindowID(0x0020_0001), type: Atom(104), data: [0x0040_0001, 5 << 24, 500, 501, 502])
        XCTAssertEqual(try X11Event.decode(message.encoded[...]), .clientMessage(message))
        let sent = [33 | 0x80] + message.encoded.dropFirst()
        XCTAssertEqual(try X11Event.decode(sent[...]), .clientMessage(message), "XDND's messages come by SendEvent")
        var format8 = message.encoded
        format8[1] = 8
        XCTAssertEqual(try X11Event.decode(format8[...]), .other(code: 33, bytes: format8), "a format no convention of ours uses")
        XCTAssertThrowsError(try X11Event.decode(message.encoded.prefix(31)))
    }

    func testWindowReplies() throws {
        let tree = try X11Reply.queryTree(reply(fields: le32(0x536) + le32(0x536) + le16(2) + zeros(14), extra: le32(0x0040_0001) + le32(0x0060_0001)))
        XCTAssertEqual(tree, WindowTree(root: WindowID(0x536), parent: WindowID(0x536), children: [WindowID(0x0040_0001), WindowID(0x0060_0001)]))
        XCTAssertEqual(try X11Reply.queryTree(reply(fields: le32(0x536) + le32(0) + le16(0))).children, [])

        let translated = try X11Reply.translateCoordinates(reply(byte1: 1, fields: le32(0x0040_0001) + i16(-10) + i16(20)))
        XCTAssertEqual(translated, TranslatedPoint(sameScreen: true, child: WindowID(0x0040_0001), x: -10, y: 20))
        XCTAssertEqual(try X11Reply.translateCoordinates(reply(byte1: 0, fields: zeros(8))), TranslatedPoint(sameScreen: false, child: .none, x: 0, y: 0))

        let pointer = try X11Reply.queryPointer(reply(byte1: 1, fields: le32(0x536) + le32(0x0040_0001) + i16(100) + i16(200) + i16(-5) + i16(7) + le16(0x0101)))
        XCTAssertEqual(pointer, PointerPosition(sameScreen: true, root: WindowID(0x536), child: WindowID(0x0040_0001),
                                                rootX: 100, rootY: 200, windowX: -5, windowY: 7, mask: [.shift, .button1]))

        XCTAssertEqual(try X11Reply.grabStatus(reply(byte1: 0, fields: [])), .success)
        XCTAssertEqual(try X11Reply.grabStatus(reply(byte1: 1, fields: [])), .alreadyGrabbed)
        XCTAssertEqual(try X11Reply.grabStatus(reply(byte1: 4, fields: [])), .frozen)
    }

    func testMalformedWindowRepliesAreRefused() {
        let twoChildren = le32(0x0040_0001) + le32(0x0060_0001)
        XCTAssertThrowsError(try X11Reply.queryTree(reply(fields: le32(1) + le32(1) + le16(3), extra: twoChildren)), "more children than the reply holds")
        XCTAssertThrowsError(try X11Reply.queryTree(reply(fields: le32(1) + le32(1) + le16(1), extra: twoChildren)), "fewer children than the reply holds")
        XCTAssertThrowsError(try X11Reply.queryTree(reply(fields: le32(1) + le32(1) + le16(0xffff))), "a count that sizes nothing")
        XCTAssertThrowsError(try X11Reply.translateCoordinates(reply(byte1: 2, fields: zeros(8))), "a BOOL of 2")
        XCTAssertThrowsError(try X11Reply.queryPointer(reply(byte1: 7, fields: zeros(20))), "a BOOL of 7")
        XCTAssertThrowsError(try X11Reply.grabStatus(reply(byte1: 5, fields: [])), "status 5")
        for decode in [{ _ = try X11Reply.queryTree($0) }, { _ = try X11Reply.translateCoordinates($0) },
                       { _ = try X11Reply.queryPointer($0) }, { _ = try X11Reply.grabStatus($0) }] as [([UInt8]) throws -> Void] {
            let valid = reply(byte1: 1, fields: zeros(24))
            for length in 0..<32 { XCTAssertThrowsError(try decode(Array(valid.prefix(length))), "short at \(length)") }
            var notAReply = valid
            notAReply[0] = 0
            XCTAssertThrowsError(try decode(notAReply), "an error packet")
            var wrongLength = valid
            wrongLength[4] = 1
            XCTAssertThrowsError(try decode(wrongLength), "a length the bytes do not have")
        }
    }

    func testWMStateAndXdndPropertyReads() throws {
        let wmState = Atom(300)
        func property(type: Atom, format: UInt8 = 32, items: [UInt32]) -> PropertyValue {
            PropertyValue(type: type, format: format, bytesAfter: 0, data: items.flatMap(le32))
        }
        XCTAssertEqual(try WMState(property: property(type: wmState, items: [1, 0]), wmState: wmState), WMState(state: .normal, icon: .none))
        XCTAssertEqual(try WMState(property: property(type: wmState, items: [3, 0x99]), wmState: wmState), WMState(state: .iconic, icon: WindowID(0x99)))
        XCTAssertNil(try WMState(property: PropertyValue(type: .none, format: 0, bytesAfter: 0, data: []), wmState: wmState), "not a managed top-level")
        XCTAssertThrowsError(try WMState(property: property(type: .atom, items: [1, 0]), wmState: wmState), "another type")
        XCTAssertThrowsError(try WMState(property: property(type: wmState, format: 8, items: [1, 0]), wmState: wmState), "another format")
        XCTAssertThrowsError(try WMState(property: property(type: wmState, items: [1]), wmState: wmState), "one item")
        XCTAssertThrowsError(try WMState(property: property(type: wmState, items: [2, 0]), wmState: wmState), "state 2 is not ICCCM's")

        let atoms = XdndFixtures.atoms
        XCTAssertEqual(atoms.version(fromAware: property(type: .atom, items: [5])), .newest)
        XCTAssertEqual(atoms.version(fromAware: property(type: .atom, items: [7])), .newest, "a newer target speaks ours")
        XCTAssertEqual(atoms.version(fromAware: property(type: .atom, items: [4])), XdndFixtures.v4)
        XCTAssertNil(atoms.version(fromAware: property(type: .atom, items: [2])), "below version 3")
        XCTAssertNil(atoms.version(fromAware: property(type: .atom, items: [])))
        XCTAssertNil(atoms.version(fromAware: property(type: Atom(6), items: [5])), "CARDINAL, not ATOM")
        XCTAssertNil(atoms.version(fromAware: PropertyValue(type: .none, format: 0, bytesAfter: 0, data: [])), "no XdndAware")

        XCTAssertEqual(atoms.types(fromTypeList: property(type: .atom, items: [500, 501, 502, 503])), [Atom(500), Atom(501), Atom(502), Atom(503)])
        XCTAssertEqual(atoms.types(fromTypeList: property(type: .atom, items: Array(repeating: 500, count: 2000)))?.count, 1024)
        XCTAssertNil(atoms.types(fromTypeList: property(type: .atom, format: 16, items: [500])))
        XCTAssertNil(atoms.types(fromTypeList: PropertyValue(type: .none, format: 0, bytesAfter: 0, data: [])))
    }
}

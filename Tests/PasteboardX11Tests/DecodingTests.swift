@testable import PasteboardX11
import XCTest

/// Replies, events, errors and the setup reply decoded from bytes laid out by hand, and every
/// malformed variant refused with an error instead of a trap.
final class DecodingTests: XCTestCase {
    private func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8)] }
    private func le32(_ value: UInt32) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 24)] }
    private func zeros(_ count: Int) -> [UInt8] { [UInt8](repeating: 0, count: count) }

    /// A reply with `data` after its 32 bytes: header, then `fields` (24 bytes at most), padded.
    private func reply(byte1: UInt8 = 0, sequence: UInt16 = 1, fields: [UInt8], extra: [UInt8] = []) -> [UInt8] {
        [1, byte1] + le16(sequence) + le32(UInt32(extra.count / 4)) + fields + zeros(24 - fields.count) + extra
    }

    private func setupSuccess(
        idBase: UInt32 = 0x0020_0000, idMask: UInt32 = 0x001f_ffff, screens: UInt8 = 1, maximum: UInt16 = 0xffff, keycodes: (UInt8, UInt8) = (8, 255)
    ) -> [UInt8] {
        let vendor = Array("Test X".utf8)
        var body: [UInt8] = le32(12_101_004) + le32(idBase) + le32(idMask) + le32(256) + le16(UInt16(vendor.count)) + le16(maximum)
        body += [screens, 1, 0, 0, 32, 32, keycodes.0, keycodes.1] + zeros(4) + vendor + zeros(2) + [24, 32, 32] + zeros(5)
        body += le32(0x536) + le32(0x21) + le32(0xffffff) + le32(0) + le32(0) + le16(640) + le16(480) + le16(170) + le16(127)
        body += le16(1) + le16(1) + le32(0x21) + [0, 0, 24, 0]
        return [1, 0] + le16(11) + le16(0) + le16(UInt16(body.count / 4)) + body
    }

    func testSetupReplies() throws {
        let success = setupSuccess()
        XCTAssertEqual(try ConnectionSetup.additionalBytes(header: Array(success.prefix(8))), success.count - 8)
        guard case let .success(info) = try ConnectionSetup.decodeReply(success) else { return XCTFail() }
        XCTAssertEqual(info.root, WindowID(0x536))
        XCTAssertEqual(info.resourceIDBase, 0x0020_0000)
        XCTAssertEqual(info.resourceIDMask, 0x001f_ffff)
        XCTAssertEqual(info.maximumRequestBytes, 0xffff * 4)
        XCTAssertEqual(info.vendor, "Test X")
        XCTAssertEqual(info.rootWidth, 640)
        XCTAssertEqual(info.keycodes, 8...255)

        let reason = Array("No protocol specified\n".utf8)
        let failed = [0, UInt8(reason.count)] + le16(11) + le16(0) + le16(UInt16((reason.count + 2) / 4)) + reason + zeros(2)
        XCTAssertEqual(try ConnectionSetup.decodeReply(failed), .failed(reason: "No protocol specified\n"))
        let authenticate = [2] + zeros(5) + le16(2) + Array("more".utf8) + zeros(4)
        XCTAssertEqual(try ConnectionSetup.decodeReply(authenticate), .authenticate(reason: "more"))

        for length in 0..<success.count {
            XCTAssertThrowsError(try ConnectionSetup.decodeReply(Array(success.prefix(length))), "truncated at \(length)")
        }
        XCTAssertThrowsError(try ConnectionSetup.decodeReply(setupSuccess(idBase: 0x0020_0000, idMask: 0x003f_ffff)), "overlapping id base and mask")
        XCTAssertThrowsError(try ConnectionSetup.decodeReply(setupSuccess(screens: 0)), "no screens")
        XCTAssertThrowsError(try ConnectionSetup.decodeReply(setupSuccess(keycodes: (0, 255))), "keycodes below 8")
        XCTAssertThrowsError(try ConnectionSetup.decodeReply(setupSuccess(keycodes: (100, 99))), "keycodes that go down")
        XCTAssertThrowsError(try ConnectionSetup.decodeReply(setupSuccess(maximum: 100)), "a maximum request below 4096 bytes")
        XCTAssertThrowsError(try ConnectionSetup.decodeReply([7] + zeros(7)))
    }

    func testReplies() throws {
        XCTAssertEqual(try X11Reply.internAtom(reply(fields: le32(0x1c5))), Atom(0x1c5))
        let name = Array("UTF8_STRING".utf8)
        XCTAssertEqual(try X11Reply.getAtomName(reply(fields: le16(UInt16(name.count)), extra: name + [0])), "UTF8_STRING")
        XCTAssertEqual(try X11Reply.getSelectionOwner(reply(fields: le32(0x0040_0001))), WindowID(0x0040_0001))
        XCTAssertEqual(try X11Reply.queryExtension(reply(fields: [1, 138, 87, 140])), ExtensionInfo(majorOpcode: 138, firstEvent: 87, firstError: 140))
        XCTAssertNil(try X11Reply.queryExtension(reply(fields: [0, 0, 0, 0])))
        let version = try X11Reply.xfixesQueryVersion(reply(fields: le32(5) + le32(0)))
        XCTAssertEqual(version.major, 5)

        let targets = le32(31) + le32(0x1c5) + le32(0x1c6)
        let property = try X11Reply.getProperty(reply(byte1: 32, fields: le32(4) + le32(8) + le32(3), extra: targets))
        XCTAssertEqual(property, PropertyValue(type: .atom, format: 32, bytesAfter: 8, data: targets))
        XCTAssertEqual(property.items32, [31, 0x1c5, 0x1c6])
        let absent = try X11Reply.getProperty(reply(fields: zeros(12)))
        XCTAssertEqual(absent.type, .none)
        XCTAssertTrue(absent.data.isEmpty)
    }

    func testBigRequestsEnableReply() throws {
        XCTAssertEqual(try X11Reply.bigRequestsEnable(reply(fields: le32(4_194_303))), 4_194_303)
        XCTAssertThrowsError(try X11Reply.bigRequestsEnable(Array(reply(fields: le32(4_194_303)).prefix(31))), "short")
        XCTAssertThrowsError(try X11Reply.bigRequestsEnable([0] + Array(reply(fields: le32(1)).dropFirst())), "not a reply")
        // The maximum is checked against the setup's before it is used.
        XCTAssertEqual(try X11Connection.bigRequestBytes(units: 4_194_303, coreUnits: 65535), 4_194_303 * 4)
        XCTAssertEqual(try X11Connection.bigRequestBytes(units: 65535, coreUnits: 65535), 65535 * 4)
        XCTAssertEqual(try X11Connection.bigRequestBytes(units: .max, coreUnits: 65535), Int(UInt32.max) * 4)
        XCTAssertThrowsError(try X11Connection.bigRequestBytes(units: 1000, coreUnits: 65535), "below the core maximum")
        XCTAssertThrowsError(try X11Connection.bigRequestBytes(units: 0, coreUnits: 1024))
    }

    func testMalformedRepliesAreErrors() {
        XCTAssertThrowsError(try X11Reply.internAtom(Array(reply(fields: le32(1)).prefix(31))))
        XCTAssertThrowsError(try X11Reply.getAtomName(reply(fields: le16(9), extra: Array("ABCD".utf8))), "a name longer than the reply")
        XCTAssertThrowsError(try X11Reply.getProperty(reply(byte1: 8, fields: le32(31) + le32(0) + le32(100), extra: zeros(8))), "more items than bytes")
        XCTAssertThrowsError(try X11Reply.getProperty(reply(byte1: 32, fields: le32(31) + le32(0) + le32(0x4000_0001), extra: zeros(8))), "an item count that overflows")
        XCTAssertThrowsError(try X11Reply.getProperty(reply(byte1: 12, fields: le32(31) + le32(0) + le32(0))), "format 12")
        // Found by pasteboard-fuzz x11-session: data under type None (no property) reached the
        // reader's handler uncounted, as if it were a stale notification's.
        XCTAssertThrowsError(try X11Reply.getProperty(reply(byte1: 8, fields: le32(0) + le32(0) + le32(4), extra: [1, 2, 3, 4])), "items of type None")
        var wrongLength = reply(fields: le32(1))
        wrongLength[4] = 3
        XCTAssertThrowsError(try X11Reply.internAtom(wrongLength), "a length that does not match the bytes")
    }

    func testEvents() throws {
        let property = [28, 0] + le16(5) + le32(0x0040_0001) + le32(0x1d0) + le32(1000) + [0] + zeros(15)
        XCTAssertEqual(try X11Event.decode(property[...]), .propertyNotify(.init(window: WindowID(0x0040_0001), atom: Atom(0x1d0), time: 1000, isNewValue: true)))
        let deleted = [28 | 0x80, 0] + le16(5) + le32(1) + le32(2) + le32(3) + [1] + zeros(15)
        XCTAssertEqual(try X11Event.decode(deleted[...]), .propertyNotify(.init(window: WindowID(1), atom: Atom(2), time: 3, isNewValue: false)), "the SendEvent bit is ignored")
        let clear = [29, 0] + le16(5) + le32(9) + le32(10) + le32(11) + zeros(16)
        XCTAssertEqual(try X11Event.decode(clear[...]), .selectionClear(.init(time: 9, owner: WindowID(10), selection: Atom(11))))
        let request = [30, 0] + le16(5) + le32(0) + le32(1) + le32(2) + le32(3) + le32(4) + le32(5) + zeros(4)
        XCTAssertEqual(try X11Event.decode(request[...]), .selectionRequest(.init(time: 0, owner: WindowID(1), requestor: WindowID(2), selection: Atom(3), target: Atom(4), property: Atom(5))))
        let notify = X11Event.SelectionNotify(time: 1, requestor: WindowID(2), selection: Atom(3), target: Atom(4), property: .none)
        XCTAssertEqual(try X11Event.decode(notify.encoded[...]), .selectionNotify(notify))
        let fixes = [87, 0] + le16(5) + le32(1) + le32(2) + le32(3) + le32(4) + le32(5) + zeros(8)
        XCTAssertEqual(try X11Event.decode(fixes[...], xfixesFirstEvent: 87), .xfixesSelectionNotify(.init(
            kind: .setSelectionOwner, window: WindowID(1), owner: WindowID(2), selection: Atom(3), timestamp: 4, selectionTimestamp: 5)))
        XCTAssertEqual(try X11Event.decode(fixes[...]), .other(code: 87, bytes: fixes), "without XFIXES known it is just an event")
        var badKind = fixes
        badKind[1] = 9
        XCTAssertThrowsError(try X11Event.decode(badKind[...], xfixesFirstEvent: 87))
        XCTAssertThrowsError(try X11Event.decode(fixes.prefix(31)))
    }

    func testErrors() throws {
        let packet = [0, 3] + le16(0x1234) + le32(0xdead) + le16(0) + [24] + zeros(21)
        let error = try X11ProtocolError.decode(packet[...])
        XCTAssertEqual(error.codeName, "BadWindow")
        XCTAssertEqual(error.sequence, 0x1234)
        XCTAssertEqual(error.badValue, 0xdead)
        XCTAssertEqual(error.majorOpcode, 24)
        XCTAssertThrowsError(try X11ProtocolError.decode(packet.prefix(10)))
    }

    func testASocketErrorNamesItsOwnErrnoNotWhateverErrnoIsNow() {
        errno = 0
        XCTAssertEqual(SocketError(errno: ECONNREFUSED).message, "Connection refused")
        XCTAssertEqual(SocketError(errno: ENOENT).message, "No such file or directory")
    }
}

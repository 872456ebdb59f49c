import PasteboardX11
import XCTest

/// Each request byte for byte as the protocol spec's "Encoding" section lays it out
/// (little-endian, as our 'l' setup byte asks), written out by hand rather than by the encoder.
final class RequestEncodingTests: XCTestCase {
    private func le32(_ value: UInt32) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 24)] }

    func testSetupRequest() throws {
        let cookie = [UInt8](repeating: 0xab, count: 16)
        let bytes = try ConnectionSetup.request(authorizationName: Array("MIT-MAGIC-COOKIE-1".utf8), authorizationData: cookie)
        XCTAssertEqual(Array(bytes.prefix(12)), [0x6c, 0, 11, 0, 0, 0, 18, 0, 16, 0, 0, 0])
        XCTAssertEqual(Array(bytes[12..<30]), Array("MIT-MAGIC-COOKIE-1".utf8))
        XCTAssertEqual(Array(bytes[30..<32]), [0, 0], "the name is padded to 20")
        XCTAssertEqual(Array(bytes[32...]), cookie)
        XCTAssertEqual(try ConnectionSetup.request(authorizationName: [], authorizationData: []), [0x6c, 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    }

    func testAtomRequests() throws {
        XCTAssertEqual(try X11Request.internAtom("TARGETS").bytes, [16, 0, 4, 0, 7, 0, 0, 0] + Array("TARGETS".utf8) + [0])
        XCTAssertEqual(try X11Request.internAtom("INCR", onlyIfExists: true).bytes, [16, 1, 3, 0, 4, 0, 0, 0] + Array("INCR".utf8))
        XCTAssertTrue(try X11Request.internAtom("A").expectsReply)
        XCTAssertEqual(X11Request.getAtomName(Atom(0x1234)).bytes, [17, 0, 2, 0, 0x34, 0x12, 0, 0])
        XCTAssertThrowsError(try X11Request.internAtom(String(repeating: "a", count: 65536)))
    }

    func testWindowRequests() {
        let create = X11Request.createInputOnlyWindow(WindowID(0x0020_0001), parent: WindowID(0x0000_0536), eventMask: EventMask.propertyChange)
        XCTAssertEqual(create.bytes, [1, 0, 9, 0] + le32(0x0020_0001) + le32(0x536)
            + [0xff, 0xff, 0xff, 0xff, 1, 0, 1, 0] + [0, 0, 2, 0] + le32(0) + le32(0x800) + le32(0x0040_0000))
        XCTAssertFalse(create.expectsReply)
        XCTAssertEqual(X11Request.destroyWindow(WindowID(7)).bytes, [4, 0, 2, 0, 7, 0, 0, 0])
        XCTAssertEqual(X11Request.getInputFocus().bytes, [43, 0, 1, 0])
    }

    func testPropertyRequests() throws {
        let change = try X11Request.changeProperty(.append, window: WindowID(1), property: Atom(2), type: Atom(3), format: 8, data: [9, 8, 7, 6, 5])
        XCTAssertEqual(change.bytes, [18, 2, 8, 0] + le32(1) + le32(2) + le32(3) + [8, 0, 0, 0] + le32(5) + [9, 8, 7, 6, 5, 0, 0, 0])
        let atoms = try X11Request.changeProperty(window: WindowID(1), property: Atom(2), type: .atom, format: 32, data: le32(31) + le32(33))
        XCTAssertEqual(Array(atoms.bytes[16..<24]), [32, 0, 0, 0] + le32(2), "format 32: the length counts items")
        XCTAssertThrowsError(try X11Request.changeProperty(window: WindowID(1), property: Atom(2), type: .atom, format: 32, data: [1, 2, 3]))
        XCTAssertThrowsError(try X11Request.changeProperty(window: WindowID(1), property: Atom(2), type: .atom, format: 7, data: []))
        XCTAssertEqual(X11Request.deleteProperty(window: WindowID(5), property: Atom(6)).bytes, [19, 0, 3, 0] + le32(5) + le32(6))
        let get = X11Request.getProperty(window: WindowID(5), property: Atom(6), longOffset: 0x100, longLength: 0x4000, delete: true)
        XCTAssertEqual(get.bytes, [20, 1, 6, 0] + le32(5) + le32(6) + le32(0) + le32(0x100) + le32(0x4000))
        XCTAssertTrue(get.expectsReply)
    }

    /// BIG-REQUESTS spec, "Encoding": a request over 65535 units has 0 in its length field, then
    /// a CARD32 length in units that counts that extra word; one that fits keeps the core form.
    func testChangePropertyOverTheCoreLimitTakesTheExtendedForm() throws {
        let largestCore = 65535 * 4 - 24  // data that fills the core length field exactly
        let core = try X11Request.changeProperty(window: WindowID(1), property: Atom(2), type: Atom(3), format: 8, data: [UInt8](repeating: 0xaa, count: largestCore))
        XCTAssertEqual(Array(core.bytes.prefix(4)), [18, 0, 0xff, 0xff])
        XCTAssertEqual(core.bytes.count, 65535 * 4)

        let data = (0..<(largestCore + 1)).map { UInt8(truncatingIfNeeded: $0) }
        let extended = try X11Request.changeProperty(.append, window: WindowID(1), property: Atom(2), type: Atom(3), format: 8, data: data)
        // 24 bytes of header and 262117 of data padded to 262120: 65536 units, 65537 with the extra word.
        XCTAssertEqual(Array(extended.bytes.prefix(8)), [18, 2, 0, 0] + le32(65537))
        XCTAssertEqual(Array(extended.bytes[8..<28]), le32(1) + le32(2) + le32(3) + [8, 0, 0, 0] + le32(UInt32(data.count)))
        XCTAssertEqual(Array(extended.bytes[28..<(28 + data.count)]), data, "the data follows the extended header unchanged")
        XCTAssertEqual(Array(extended.bytes[(28 + data.count)...]), [0, 0, 0], "padded to four")
        XCTAssertEqual(extended.bytes.count, 65537 * 4)
        XCTAssertEqual(X11Request.announcedBytes(extended.bytes), extended.bytes.count)
        // Written as header and fields, then the data as it is, then the padding.
        XCTAssertEqual(extended.head.count, 28)
        XCTAssertEqual(extended.trailer.joined, data)
        XCTAssertEqual(extended.byteCount, extended.bytes.count)
        XCTAssertEqual(core.head.count, 24)
        XCTAssertEqual(core.byteCount, core.bytes.count)

        // 1 MiB of format-32 items: the item count is in items, the length in units.
        let items = try X11Request.changeProperty(window: WindowID(1), property: Atom(2), type: .atom, format: 32, data: [UInt8](repeating: 1, count: 1 << 20))
        XCTAssertEqual(Array(items.bytes.prefix(8)), [18, 0, 0, 0] + le32(UInt32((28 + (1 << 20)) / 4)))
        XCTAssertEqual(Array(items.bytes[20..<28]), [32, 0, 0, 0] + le32(1 << 18))
        XCTAssertEqual(X11Request.announcedBytes(items.bytes), items.bytes.count)
    }

    func testBigRequestsEnable() throws {
        XCTAssertEqual(try X11Request.queryExtension("BIG-REQUESTS").bytes, [98, 0, 5, 0, 12, 0, 0, 0] + Array("BIG-REQUESTS".utf8))
        let enable = BigRequests.enable(majorOpcode: 133)
        XCTAssertEqual(enable.bytes, [133, 0, 1, 0], "minor opcode 0, length 1")
        XCTAssertTrue(enable.expectsReply)
    }

    func testSelectionRequests() throws {
        XCTAssertEqual(X11Request.setSelectionOwner(WindowID(9), selection: Atom(10), time: 0x0102_0304).bytes,
                       [22, 0, 4, 0] + le32(9) + le32(10) + [4, 3, 2, 1])
        XCTAssertEqual(X11Request.getSelectionOwner(Atom(10)).bytes, [23, 0, 2, 0] + le32(10))
        XCTAssertEqual(X11Request.convertSelection(requestor: WindowID(9), selection: Atom(10), target: Atom(11), property: Atom(12), time: currentTime).bytes,
                       [24, 0, 6, 0] + le32(9) + le32(10) + le32(11) + le32(12) + le32(0))
        let notify = X11Event.SelectionNotify(time: 77, requestor: WindowID(9), selection: Atom(10), target: Atom(11), property: Atom(12))
        XCTAssertEqual(notify.encoded, [31, 0, 0, 0] + le32(77) + le32(9) + le32(10) + le32(11) + le32(12) + [UInt8](repeating: 0, count: 8))
        let send = try X11Request.sendEvent(destination: WindowID(9), event: notify.encoded)
        XCTAssertEqual(send.bytes, [25, 0, 11, 0] + le32(9) + le32(0) + notify.encoded)
        XCTAssertThrowsError(try X11Request.sendEvent(destination: WindowID(9), event: [31]))
    }

    func testExtensionRequests() throws {
        XCTAssertEqual(try X11Request.queryExtension("XFIXES").bytes, [98, 0, 4, 0, 6, 0, 0, 0] + Array("XFIXES".utf8) + [0, 0])
        XCTAssertEqual(XFixes.queryVersion(majorOpcode: 138).bytes, [138, 0, 3, 0] + le32(5) + le32(0))
        XCTAssertEqual(XFixes.selectSelectionInput(majorOpcode: 138, window: WindowID(9), selection: Atom(10), mask: .all).bytes,
                       [138, 2, 4, 0] + le32(9) + le32(10) + le32(7))
    }
}

import PasteboardX11
import XCTest

/// XDND's six client messages (XDND spec, "Client Messages"): each one's layout byte for byte,
/// round trips through the 32 bytes of a ClientMessage, and every malformed form a peer could
/// send refused with an error.
final class XdndMessageTests: XCTestCase {
    private let atoms = XdndFixtures.atoms
    private typealias F = XdndFixtures

    private func roundTrip(_ message: XdndMessage, window: WindowID, file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = XdndEnvelope(window: window, message: message).encoded(atoms: atoms)
        XCTAssertEqual(bytes.count, 32, file: file, line: line)
        let event = try ClientMessage(decoding: bytes)
        XCTAssertEqual(event.window, window, file: file, line: line)
        XCTAssertEqual(event.type, message.type(in: atoms), file: file, line: line)
        XCTAssertEqual(try XdndMessage(decoding: event, atoms: atoms), message, file: file, line: line)
    }

    private func items(_ message: XdndMessage) -> [UInt32] { message.clientMessage(window: F.firstTarget, atoms: atoms).data }

    private func decode(type: Atom, _ data: [UInt32]) throws -> XdndMessage {
        try XdndMessage(decoding: ClientMessage(window: F.firstTarget, type: type, data: data), atoms: atoms)
    }

    private func assertRefused(type: Atom, _ data: [UInt32], as expected: XdndError, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try decode(type: type, data), file: file, line: line) { error in
            XCTAssertEqual(error as? XdndError, expected, file: file, line: line)
        }
    }

    // MARK: - Layouts and round trips

    func testEveryMessageRoundTrips() throws {
        let messages: [XdndMessage] = [
            .enter(XdndEnter(source: F.source, version: F.v5, offering: [F.png, F.plainText])),
            .enter(XdndEnter(source: F.source, version: F.v3, offering: [F.png, F.uriList, F.plainText, F.html])),
            .position(XdndPosition(source: F.source, point: F.point(1919, 1079), time: 0xffff_fffe, action: F.move)),
            .position(XdndPosition(source: F.source, point: F.point(-5, -32768), time: 1, action: F.atoms.actionPrivate)),
            .status(XdndStatus(target: F.firstTarget, accepts: true, action: F.copy)),
            .status(XdndStatus(target: F.firstTarget, accepts: false, wantsEveryPosition: false,
                               quietRectangle: XdndRectangle(origin: F.point(10, 20), width: 300, height: 65535), action: .none)),
            .leave(XdndLeave(source: F.source)),
            .drop(XdndDrop(source: F.source, time: 123_456)),
            .finished(XdndFinished(target: F.firstTarget, succeeded: true, action: F.move)),
            .finished(XdndFinished(target: F.firstTarget, succeeded: false, action: .none)),
        ]
        for message in messages { try roundTrip(message, window: F.secondTarget) }
    }

    func testEnterHasTheVersionInTheHighByteAndTheTypeListInBitZero() {
        let three = XdndMessage.enter(XdndEnter(source: F.source, version: F.v5, offering: [F.png, F.plainText]))
        XCTAssertEqual(items(three), [F.source.rawValue, 5 << 24, 500, 502, 0])
        let four = XdndEnter(source: F.source, version: F.v4, offering: [F.png, F.uriList, .none, F.plainText, F.html])
        XCTAssertTrue(four.usesTypeList, "more than three types: the rest are in XdndTypeList")
        XCTAssertEqual(four.types, [F.png, F.uriList, F.plainText], "the first three, None left out")
        XCTAssertEqual(items(.enter(four)), [F.source.rawValue, 4 << 24 | 1, 500, 501, 502])
        // Decoding: reserved bits 1...23 are ignored, None slots dropped.
        let decoded = try? decode(type: atoms.enter, [7, 3 << 24 | 0x00ff_fffe, 0, 501, 0])
        XCTAssertEqual(decoded, .enter(XdndEnter(source: WindowID(7), version: F.v3, offering: [F.uriList])))
    }

    func testPositionPacksTheRootPointXHighYLow() throws {
        let position = XdndMessage.position(XdndPosition(source: F.source, point: F.point(300, 200), time: 99, action: F.copy))
        XCTAssertEqual(items(position), [F.source.rawValue, 0, 300 << 16 | 200, 99, F.copy.rawValue])
        XCTAssertEqual(XdndPoint(packed: 0xffff_8000), F.point(-1, -32768))
        XCTAssertEqual(F.point(-1, -32768).packed, 0xffff_8000)
        for packed: UInt32 in [0, 1, 0x7fff_7fff, 0x8000_0000, 0xffff_ffff, 0x1234_5678] {
            XCTAssertEqual(XdndPoint(packed: packed).packed, packed)
        }
        // data.l[1] is reserved: a peer's bits there are ignored.
        let decoded = try decode(type: atoms.position, [F.source.rawValue, 0xdead_beef, 300 << 16 | 200, 99, F.copy.rawValue])
        XCTAssertEqual(decoded, position)
    }

    func testStatusHasAcceptAndWantPositionBitsTheRectangleAndTheAction() throws {
        let accept = XdndMessage.status(XdndStatus(target: F.firstTarget, accepts: true, action: F.move))
        XCTAssertEqual(items(accept), [F.firstTarget.rawValue, 3, 0, 0, F.move.rawValue])
        let quiet = XdndStatus(target: F.firstTarget, accepts: false, wantsEveryPosition: false,
                               quietRectangle: XdndRectangle(origin: F.point(10, 20), width: 30, height: 40), action: F.move)
        XCTAssertEqual(quiet.action, .none, "a refusal names no action")
        XCTAssertEqual(items(.status(quiet)), [F.firstTarget.rawValue, 0, 10 << 16 | 20, 30 << 16 | 40, 0])
        // A peer's refusal with an action: the action is not believed.
        let decoded = try decode(type: atoms.status, [F.firstTarget.rawValue, 2, 0, 0, F.move.rawValue])
        XCTAssertEqual(decoded, .status(XdndStatus(target: F.firstTarget, accepts: false, wantsEveryPosition: true, action: .none)))
    }

    func testTheQuietRectangleContainsItsInsideOnly() {
        let box = XdndRectangle(origin: F.point(10, 20), width: 30, height: 40)
        XCTAssertTrue(box.contains(F.point(10, 20)))
        XCTAssertTrue(box.contains(F.point(39, 59)))
        XCTAssertFalse(box.contains(F.point(40, 20)))
        XCTAssertFalse(box.contains(F.point(10, 60)))
        XCTAssertFalse(box.contains(F.point(9, 30)))
        XCTAssertFalse(XdndRectangle.empty.contains(F.point(0, 0)))
        // At the edges of INT16 nothing overflows.
        let edge = XdndRectangle(origin: F.point(.max, .max), width: .max, height: .max)
        XCTAssertTrue(edge.contains(F.point(.max, .max)))
        XCTAssertFalse(edge.contains(F.point(.min, .min)))
    }

    func testLeaveDropAndFinishedLayouts() throws {
        XCTAssertEqual(items(.leave(XdndLeave(source: F.source))), [F.source.rawValue, 0, 0, 0, 0])
        XCTAssertEqual(items(.drop(XdndDrop(source: F.source, time: 4242))), [F.source.rawValue, 0, 4242, 0, 0])
        XCTAssertEqual(items(.finished(XdndFinished(target: F.firstTarget, succeeded: true, action: F.copy))), [F.firstTarget.rawValue, 1, F.copy.rawValue, 0, 0])
        XCTAssertEqual(items(.finished(XdndFinished(target: F.firstTarget, succeeded: false, action: F.copy))), [F.firstTarget.rawValue, 0, 0, 0, 0])
        // Before version 5 the outcome fields are reserved: sent as zeros whatever happened.
        for version in [F.v3, F.v4] {
            let old = XdndFinished(target: F.firstTarget, version: version, succeeded: true, action: F.move)
            XCTAssertEqual(items(.finished(old)), [F.firstTarget.rawValue, 0, 0, 0, 0], "\(version)")
        }
        let v5 = XdndFinished(target: F.firstTarget, version: F.v5, succeeded: true, action: F.move)
        XCTAssertEqual(items(.finished(v5)), [F.firstTarget.rawValue, 1, F.move.rawValue, 0, 0])
    }

    func testTheEventBytesAreAFormat32ClientMessage() {
        let bytes = XdndEnvelope(window: F.firstTarget, destination: WindowID(0x99), message: .drop(XdndDrop(source: F.source, time: 0x0102_0304))).encoded(atoms: atoms)
        XCTAssertEqual(bytes, [
            33, 32, 0, 0,  // ClientMessage, format 32, sequence
            0x10, 0, 0x60, 0,  // window: the target (not the proxy that receives it)
            108, 0, 0, 0,  // type: XdndDrop
            1, 0, 0x40, 0,  // data.l[0]: the source
            0, 0, 0, 0,  // data.l[1]: reserved
            4, 3, 2, 1,  // data.l[2]: the time
            0, 0, 0, 0, 0, 0, 0, 0,
        ])
    }

    // MARK: - Refused

    func testVersionsOutsideThreeToFiveAreRefused() {
        for version: UInt32 in [0, 1, 2, 6, 7, 0xff] {
            assertRefused(type: atoms.enter, [F.source.rawValue, version << 24, F.png.rawValue, 0, 0], as: .unsupportedVersion(version))
        }
        for version: UInt32 in [3, 4, 5] {
            XCTAssertNoThrow(try decode(type: atoms.enter, [F.source.rawValue, version << 24, 0, 0, 0]))
        }
    }

    func testUnknownTypesAndWindowNoneAreRefused() {
        assertRefused(type: Atom(999), [1, 0, 0, 0, 0], as: .notXdnd(type: Atom(999)))
        assertRefused(type: atoms.aware, [1, 0, 0, 0, 0], as: .notXdnd(type: atoms.aware))
        assertRefused(type: atoms.actionCopy, [1, 0, 0, 0, 0], as: .notXdnd(type: atoms.actionCopy))
        for type in [atoms.enter, atoms.position, atoms.status, atoms.leave, atoms.drop, atoms.finished] {
            XCTAssertThrowsError(try decode(type: type, [0, 5 << 24, 0, 0, 0]), "\(type) from window None") { error in
                guard case .malformed? = error as? XdndError else { return XCTFail("\(error)") }
            }
        }
    }

    func testClientMessageDecodingRefusesOtherEventsFormatsAndLengths() throws {
        var bytes = XdndEnvelope(window: F.firstTarget, message: .leave(XdndLeave(source: F.source))).encoded(atoms: atoms)
        XCTAssertNoThrow(try ClientMessage(decoding: bytes))
        bytes[0] = 33 | 0x80  // SendEvent's bit, as every XDND message arrives
        XCTAssertEqual(try ClientMessage(decoding: bytes).type, atoms.leave)
        var format8 = bytes
        format8[1] = 8
        XCTAssertThrowsError(try ClientMessage(decoding: format8))
        var selectionNotify = bytes
        selectionNotify[0] = 31
        XCTAssertThrowsError(try ClientMessage(decoding: selectionNotify))
        XCTAssertThrowsError(try ClientMessage(decoding: Array(bytes.prefix(31))))
        XCTAssertThrowsError(try ClientMessage(decoding: bytes + [0]))
        XCTAssertThrowsError(try ClientMessage(decoding: []))
    }

    func testArbitraryBytesNeverTrap() {
        // A fixed generator: the same 20,000 inputs each run, half of them with an XDND type.
        var state: UInt64 = 0x9e37_79b9_7f4a_7c15
        func next() -> UInt32 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt32(truncatingIfNeeded: state >> 32)
        }
        var decoded = 0
        for index in 0..<20_000 {
            var bytes = (0..<32).map { _ in UInt8(truncatingIfNeeded: next()) }
            if index % 2 == 0 {
                bytes[0] = 33
                bytes[1] = 32
                bytes[8] = UInt8(104 + next() % 6)
                bytes[9] = 0; bytes[10] = 0; bytes[11] = 0
            }
            guard let event = try? ClientMessage(decoding: bytes) else { continue }
            if (try? XdndMessage(decoding: event, atoms: atoms)) != nil { decoded += 1 }
        }
        XCTAssertGreaterThan(decoded, 1000, "most XDND-typed inputs decode")
    }

    // MARK: - Atoms and versions

    func testAtomsAreTakenInNameOrderAndMustBeDistinct() throws {
        XCTAssertEqual(XdndAtoms.names.count, 15)
        XCTAssertEqual(atoms.aware, Atom(100))
        XCTAssertEqual(atoms.selection, Atom(102))
        XCTAssertEqual(atoms.finished, Atom(109))
        XCTAssertEqual(atoms.actionPrivate, Atom(114))
        XCTAssertThrowsError(try XdndAtoms(interned: (100...113).map { Atom($0) }))
        XCTAssertThrowsError(try XdndAtoms(interned: [Atom(100)] + (100...113).map { Atom($0) }))
        XCTAssertThrowsError(try XdndAtoms(interned: [.none] + (101...114).map { Atom($0) }))
        XCTAssertEqual(atoms.operation(for: atoms.actionCopy), .copy)
        XCTAssertEqual(atoms.operation(for: atoms.actionMove), .move)
        for other in [atoms.actionLink, atoms.actionAsk, atoms.actionPrivate, .none, Atom(7)] {
            XCTAssertNil(atoms.operation(for: other))
        }
        for operation in XdndOperation.allCases { XCTAssertEqual(atoms.operation(for: atoms.action(for: operation)), operation) }
    }

    func testTheVersionSpokenIsTheLowerOfOursAndTheWindows() {
        XCTAssertNil(XdndVersion(negotiatingWith: 0))
        XCTAssertNil(XdndVersion(negotiatingWith: 2))
        XCTAssertEqual(XdndVersion(negotiatingWith: 3), F.v3)
        XCTAssertEqual(XdndVersion(negotiatingWith: 4), F.v4)
        XCTAssertEqual(XdndVersion(negotiatingWith: 5), F.v5)
        XCTAssertEqual(XdndVersion(negotiatingWith: 6), F.v5)
        XCTAssertEqual(XdndVersion(negotiatingWith: .max), F.v5)
        XCTAssertNil(XdndVersion(rawValue: 2))
        XCTAssertNil(XdndVersion(rawValue: 6))
        XCTAssertFalse(F.v4.reportsFinishedOutcome)
        XCTAssertTrue(F.v5.reportsFinishedOutcome)
    }
}

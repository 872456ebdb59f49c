@testable import PasteboardWayland
import XCTest

/// The wire format byte for byte (little-endian, as on every machine the daemon runs on), and
/// the decoder's refusal of whatever a broken or hostile compositor might send.
final class WireCodecTests: XCTestCase {
    func testGetRegistryEncodesAsHeaderAndNewID() throws {
        let bytes = try WireEncoder.encode(WireMessage(objectID: 1, opcode: 1, arguments: [.newID(2)]))
        XCTAssertEqual(bytes, [1, 0, 0, 0, 1, 0, 12, 0, 2, 0, 0, 0])
    }

    func testBindCarriesInterfaceNameVersionAndIDForAnUntypedNewID() throws {
        let message = WireMessage(objectID: 2, opcode: 0, arguments: [.uint(5), .untypedNewID(interface: "wl_seat", version: 2, id: 3)])
        let bytes = try WireEncoder.encode(message)
        XCTAssertEqual(bytes, [
            2, 0, 0, 0, 0, 0, 32, 0,
            5, 0, 0, 0,
            8, 0, 0, 0, 0x77, 0x6c, 0x5f, 0x73, 0x65, 0x61, 0x74, 0,  // "wl_seat\0"
            2, 0, 0, 0,
            3, 0, 0, 0,
        ])
        var none: [Int32] = []
        XCTAssertEqual(try WireDecoder.decode(bytes[...], signature: [.uint, .untypedNewID], descriptors: &none), message)
    }

    func testStringsCountTheirNULAndPadToFourBytes() throws {
        let bytes = try WireEncoder.encode(WireMessage(objectID: 9, opcode: 3, arguments: [.string("ab"), .string(nil), .string("")]))
        XCTAssertEqual(bytes, [
            9, 0, 0, 0, 3, 0, 28, 0,
            3, 0, 0, 0, 0x61, 0x62, 0, 0,  // "ab\0" + 1 byte of padding
            0, 0, 0, 0,  // null string
            1, 0, 0, 0, 0, 0, 0, 0,  // "" is its NUL, padded
        ])
    }

    func testIntFixedArrayAndObjectRoundTrip() throws {
        let message = WireMessage(objectID: 0xff00_0001, opcode: 7, arguments: [
            .int(-2), .fixed(WireFixed(-1.5)), .array([1, 2, 3, 4, 5]), .object(0), .newID(12), .string("text/plain;charset=utf-8"),
        ])
        let bytes = try WireEncoder.encode(message)
        XCTAssertEqual(Array(bytes[8..<16]), [0xfe, 0xff, 0xff, 0xff, 0x80, 0xfe, 0xff, 0xff])
        var none: [Int32] = []
        let decoded = try WireDecoder.decode(bytes[...], signature: [.int, .fixed, .array, .object, .newID, .string], descriptors: &none)
        XCTAssertEqual(decoded, message)
        XCTAssertEqual(WireFixed(rawValue: -384).doubleValue, -1.5)
        // Values out of range are clamped, never trapped on (1e19, infinities, NaN).
        XCTAssertEqual(WireFixed(1e19).rawValue, .max)
        XCTAssertEqual(WireFixed(-.infinity).rawValue, .min)
        XCTAssertEqual(WireFixed(.infinity).rawValue, .max)
        XCTAssertEqual(WireFixed(.nan).rawValue, 0)
    }

    func testFDArgumentsTakeReceivedDescriptorsInOrderAndAreNotInTheBytes() throws {
        let sent = WireMessage(objectID: 4, opcode: 0, arguments: [.string("image/png"), .fd(41)])
        XCTAssertEqual(sent.descriptors, [41])
        let bytes = try WireEncoder.encode(sent)
        XCTAssertEqual(bytes.count, 8 + 4 + 12)
        var received: [Int32] = [7, 8]
        let decoded = try WireDecoder.decode(bytes[...], signature: [.string, .fd], descriptors: &received)
        XCTAssertEqual(decoded.arguments, [.string("image/png"), .fd(7)])
        XCTAssertEqual(received, [8])
    }

    func testAMessageWithAnFDArgumentButNoDescriptorIsRefused() throws {
        let bytes = try WireEncoder.encode(WireMessage(objectID: 4, opcode: 0, arguments: [.string("a"), .fd(3)]))
        var none: [Int32] = []
        XCTAssertThrowsError(try WireDecoder.decode(bytes[...], signature: [.string, .fd], descriptors: &none)) {
            XCTAssertEqual($0 as? WireError, .missingDescriptor(objectID: 4, opcode: 0))
        }
    }

    func testTruncatedAndOversizedLengthsAreRefusedNotTrusted() throws {
        var none: [Int32] = []
        // A string length far past the message's end, including one that would overflow a signed int.
        for length: [UInt8] in [[0x40, 0, 0, 0], [0xff, 0xff, 0xff, 0xff], [5, 0, 0, 0]] {
            let bytes: [UInt8] = [3, 0, 0, 0, 0, 0, 16, 0] + length + [0x61, 0x62, 0x63, 0]
            XCTAssertThrowsError(try WireDecoder.decode(bytes[...], signature: [.string], descriptors: &none)) {
                XCTAssertEqual($0 as? WireError, .truncatedArgument(objectID: 3, opcode: 0, argument: 0))
            }
        }
        // A uint argument missing entirely.
        XCTAssertThrowsError(try WireDecoder.decode([3, 0, 0, 0, 0, 0, 8, 0][...], signature: [.uint], descriptors: &none)) {
            XCTAssertEqual($0 as? WireError, .truncatedArgument(objectID: 3, opcode: 0, argument: 0))
        }
        // Bytes after the last argument.
        XCTAssertThrowsError(try WireDecoder.decode([3, 0, 0, 0, 0, 0, 12, 0, 1, 0, 0, 0][...], signature: [], descriptors: &none)) {
            XCTAssertEqual($0 as? WireError, .trailingBytes(objectID: 3, opcode: 0, count: 4))
        }
        // A string without its NUL, and one with invalid UTF-8.
        for body: [UInt8] in [[0x61, 0x62, 0x63, 0x64], [0xff, 0xfe, 0x61, 0]] {
            let bytes: [UInt8] = [3, 0, 0, 0, 0, 0, 16, 0, 4, 0, 0, 0] + body
            XCTAssertThrowsError(try WireDecoder.decode(bytes[...], signature: [.string], descriptors: &none)) {
                XCTAssertEqual($0 as? WireError, .invalidString(objectID: 3, opcode: 0, argument: 0))
            }
        }
    }

    func testHeadersWithImpossibleSizesAreRefused() {
        for size: UInt8 in [0, 4, 10] {
            XCTAssertThrowsError(try WireHeader.read(from: [1, 0, 0, 0, 2, 0, size, 0])) {
                XCTAssertEqual($0 as? WireError, .invalidMessageSize(objectID: 1, opcode: 2, size: Int(size)))
            }
        }
        XCTAssertNil(try WireHeader.read(from: [1, 0, 0, 0, 2, 0, 8]))
    }

    func testMessagesBeyondTheSizeFieldAreNotEncoded() {
        let long = String(repeating: "x", count: 70_000)
        XCTAssertThrowsError(try WireEncoder.encode(WireMessage(objectID: 5, opcode: 0, arguments: [.string(long)]))) {
            guard case .messageTooLarge(5, 0, _)? = $0 as? WireError else { return XCTFail("\($0)") }
        }
    }

    func testTheReaderReassemblesMessagesSplitAcrossReadsAndPairsDescriptors() throws {
        let messages = [
            WireMessage(objectID: 7, opcode: 0, arguments: [.string("text/plain"), .fd(0)]),
            WireMessage(objectID: 8, opcode: 1, arguments: [.uint(3)]),
            WireMessage(objectID: 7, opcode: 0, arguments: [.string("image/png"), .fd(0)]),
        ]
        let stream = try messages.flatMap { try WireEncoder.encode($0) }
        var reader = MessageReader()
        var decoded: [WireMessage] = []
        for (index, byte) in stream.enumerated() {
            // Descriptors arrive with the first byte of their message, as SCM_RIGHTS does.
            reader.append([byte], descriptors: index == 0 ? [100] : index == 36 ? [101] : [])
            while let frame = try reader.nextFrame() {
                let signature: WireSignature = frame.header.objectID == 7 ? [.string, .fd] : [.uint]
                decoded.append(try reader.decode(frame.bytes, signature: signature))
            }
        }
        XCTAssertEqual(decoded.map(\.arguments), [
            [.string("text/plain"), .fd(100)], [.uint(3)], [.string("image/png"), .fd(101)],
        ])
        XCTAssertEqual(reader.pendingByteCount, 0)
        XCTAssertEqual(reader.descriptors, [])
    }
}

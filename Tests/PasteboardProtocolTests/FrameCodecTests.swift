import NIOCore
import PasteboardProtocol
import XCTest

final class FrameCodecTests: XCTestCase {
    private func encoded(_ frames: [Frame]) -> ByteBuffer {
        var buffer = ByteBuffer()
        for frame in frames { FrameCodec.encode(frame, into: &buffer) }
        return buffer
    }

    func testRoundTripOfMessageAndDataFrames() throws {
        let message = Frame.message(.read(ReadRequest(pasteboard: "general", item: 2, accept: ["public.png", "text/plain"])), requestID: 7)
        let data = Frame.data(ByteBuffer(bytes: [0, 1, 2, 255]), requestID: 7, end: true)
        var buffer = encoded([message, data])
        let first = try XCTUnwrap(try FrameCodec.decode(from: &buffer, maxFrameLength: 1 << 20))
        let second = try XCTUnwrap(try FrameCodec.decode(from: &buffer, maxFrameLength: 1 << 20))
        XCTAssertEqual(first, message)
        XCTAssertEqual(second, data)
        XCTAssertTrue(second.isEnd)
        XCTAssertEqual(buffer.readableBytes, 0)
        XCTAssertEqual(try first.decodeMessage(), .read(ReadRequest(pasteboard: "general", item: 2, accept: ["public.png", "text/plain"])))
    }

    func testHeaderLayoutIsBigEndianLengthKindFlagsRequestID() {
        let buffer = encoded([.data(ByteBuffer(bytes: [0xAB, 0xCD]), requestID: 0x0102_0304, end: true)])
        XCTAssertEqual(Array(buffer.readableBytesView), [0, 0, 0, 8, 2, 1, 1, 2, 3, 4, 0xAB, 0xCD])
    }

    func testEveryTruncationAsksForMoreBytesAndConsumesNothing() throws {
        let full = encoded([.message(.hello(Hello(client: "test", pid: 42)), requestID: 0)])
        for cut in 0..<full.readableBytes {
            var partial = full.getSlice(at: 0, length: cut)!
            XCTAssertNil(try FrameCodec.decode(from: &partial, maxFrameLength: 1 << 20), "cut at \(cut)")
            XCTAssertEqual(partial.readableBytes, cut, "a truncated frame must not be consumed")
        }
    }

    func testOversizeLengthIsRejectedFromTheHeaderAlone() {
        var buffer = ByteBuffer(bytes: [0x7F, 0xFF, 0xFF, 0xFF])
        XCTAssertThrowsError(try FrameCodec.decode(from: &buffer, maxFrameLength: 1 << 20)) { error in
            XCTAssertEqual(error as? FrameError, .frameTooLarge(length: 0x7FFF_FFFF, maximum: 1 << 20))
            XCTAssertEqual((error as? FrameError)?.code, .frameTooLarge)
        }
    }

    func testLengthShorterThanTheHeaderIsMalformed() {
        var buffer = ByteBuffer(bytes: [0, 0, 0, 3, 1, 0, 0])
        XCTAssertThrowsError(try FrameCodec.decode(from: &buffer, maxFrameLength: 1 << 20)) { error in
            XCTAssertEqual(error as? FrameError, .frameTooShort(length: 3))
        }
    }

    func testUnknownKindAndReservedFlagsAreMalformed() {
        var badKind = ByteBuffer(bytes: [0, 0, 0, 6, 9, 0, 0, 0, 0, 1])
        XCTAssertThrowsError(try FrameCodec.decode(from: &badKind, maxFrameLength: 1 << 20)) { error in
            XCTAssertEqual(error as? FrameError, .unknownKind(9))
            XCTAssertEqual((error as? FrameError)?.code, .malformedFrame)
        }
        var badFlags = ByteBuffer(bytes: [0, 0, 0, 6, 2, 0x80, 0, 0, 0, 1])
        XCTAssertThrowsError(try FrameCodec.decode(from: &badFlags, maxFrameLength: 1 << 20)) { error in
            XCTAssertEqual(error as? FrameError, .reservedFlags(0x80))
        }
    }

    func testGarbageNeverCrashesAndEitherThrowsOrYieldsWellFormedFrames() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let count = Int.random(in: 0..<64, using: &generator)
            var buffer = ByteBuffer(bytes: (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
            do {
                while let frame = try FrameCodec.decode(from: &buffer, maxFrameLength: 1 << 16) {
                    XCTAssertLessThanOrEqual(frame.length, 1 << 16)
                    XCTAssertFalse(frame.flags.contains(.reserved))
                }
            } catch {
                XCTAssertFalse(error.description.isEmpty)
            }
        }
    }
}

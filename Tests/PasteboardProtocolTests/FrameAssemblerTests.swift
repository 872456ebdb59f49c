import NIOCore
@testable import PasteboardProtocol
import XCTest

/// The inbound side of every connection: bytes as the socket hands them over, in reads of any
/// size, must become the frames that were sent, in order, and a broken stream must stop at the
/// fault.
final class FrameAssemblerTests: XCTestCase {
    private let frames: [Frame] = [
        .message(.hello(Hello(client: "assembler", pid: 7)), requestID: 0),
        .data(ByteBuffer(bytes: Array(0..<200).map { UInt8($0) }), requestID: 3, end: false),
        .data(ByteBuffer(), requestID: 3, end: true),
        .message(.cancel, requestID: 9),
    ]

    private var stream: ByteBuffer {
        var buffer = ByteBuffer()
        for frame in frames { FrameCodec.encode(frame, into: &buffer) }
        return buffer
    }

    /// Feeds `stream` to a new assembler in reads ending at `cuts`; returns what it delivered.
    private func assemble(_ stream: ByteBuffer, cutAt cuts: [Int]) throws -> [Frame] {
        var assembler = FrameAssembler(maxFrameLength: 1 << 20)
        var delivered: [Frame] = []
        var start = 0
        for end in cuts + [stream.readableBytes] where end >= start {
            try assembler.receive(stream.getSlice(at: start, length: end - start)!) { delivered.append($0) }
            start = end
        }
        return delivered
    }

    func testEverySplitIntoTwoReadsGivesTheFramesInOrder() throws {
        let stream = stream
        for cut in 0...stream.readableBytes {
            XCTAssertEqual(try assemble(stream, cutAt: [cut]), frames, "split at \(cut)")
        }
    }

    func testOneByteReadsAndOneReadForAllGiveTheSameFrames() throws {
        let stream = stream
        XCTAssertEqual(try assemble(stream, cutAt: Array(1..<stream.readableBytes)), frames)
        XCTAssertEqual(try assemble(stream, cutAt: []), frames)
    }

    func testALargeFrameArrivingInManyReadsIsWhole() throws {
        let payload = ByteBuffer(bytes: (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var stream = ByteBuffer()
        FrameCodec.encode(.data(payload, requestID: 5, end: true), into: &stream)
        FrameCodec.encode(.message(.cancel, requestID: 5), into: &stream)
        let delivered = try assemble(stream, cutAt: Array(stride(from: 3, to: stream.readableBytes, by: 65_536)))
        XCTAssertEqual(delivered, [.data(payload, requestID: 5, end: true), .message(.cancel, requestID: 5)])
    }

    func testABrokenHeaderStopsTheStreamAfterTheFramesBeforeIt() throws {
        var stream = stream
        stream.writeBytes([0, 0, 0, 8, 9, 0, 0, 0, 0, 1, 0xAA, 0xBB])  // kind 9 does not exist
        var assembler = FrameAssembler(maxFrameLength: 1 << 20)
        var delivered: [Frame] = []
        XCTAssertThrowsError(try assembler.receive(stream) { delivered.append($0) }) { error in
            XCTAssertEqual(error as? FrameError, .unknownKind(9))
        }
        XCTAssertEqual(delivered, frames)
        // The connection is over: what follows is not read as frames.
        var more = ByteBuffer()
        FrameCodec.encode(.message(.cancel, requestID: 4), into: &more)
        XCTAssertNoThrow(try assembler.receive(more) { delivered.append($0) })
        XCTAssertEqual(delivered, frames)
    }

    func testAnOversizeLengthIsRefusedBeforeItsBytesArrive() {
        var assembler = FrameAssembler(maxFrameLength: 64 << 10)
        var header = ByteBuffer()
        header.writeMultipleIntegers(UInt32(1 << 20), UInt8(2), UInt8(0), UInt32(1))
        XCTAssertThrowsError(try assembler.receive(header) { _ in XCTFail("no frame") }) { error in
            XCTAssertEqual(error as? FrameError, .frameTooLarge(length: 1 << 20, maximum: 64 << 10))
        }
    }
}

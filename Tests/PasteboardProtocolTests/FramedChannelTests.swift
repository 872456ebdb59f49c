import NIOCore
import NIOEmbedded
@testable import PasteboardProtocol
import XCTest

/// A connection's frame path on a channel of its own: bytes in, frames out of the inbox in
/// order; frames into the outbox, their encoding onto the wire.
final class FramedChannelTests: XCTestCase {
    private func connectedChannel(maxFrameLength: Int = 1 << 20) async throws -> (NIOAsyncTestingChannel, FramedChannel) {
        let channel = NIOAsyncTestingChannel()
        let framed = try await channel.eventLoop.submit { try FramedChannel(channel, maxFrameLength: maxFrameLength) }.get()
        try await channel.connect(to: SocketAddress(unixDomainSocketPath: "/tmp/framed-channel-test")).get()
        return (channel, framed)
    }

    private func encoded(_ frames: [Frame]) -> ByteBuffer {
        var buffer = ByteBuffer()
        for frame in frames { FrameCodec.encode(frame, into: &buffer) }
        return buffer
    }

    func testTheInboxHandsOverFramesInOrderAcrossReadsThenEndsWithTheChannel() async throws {
        let (channel, framed) = try await connectedChannel()
        let frames: [Frame] = [
            .message(.hello(Hello(client: "framed", pid: 1)), requestID: 0),
            .data(ByteBuffer(bytes: Array(repeating: 7, count: 5000)), requestID: 2, end: true),
            .message(.cancel, requestID: 2),
        ]
        let stream = encoded(frames)
        // Three reads that cut the second frame's header and its payload.
        try await channel.writeInbound(stream.getSlice(at: 0, length: 70)!)
        try await channel.writeInbound(stream.getSlice(at: 70, length: 3000)!)
        try await channel.writeInbound(stream.getSlice(at: 3070, length: stream.readableBytes - 3070)!)
        let inbox = try XCTUnwrap(framed.inbox)
        for frame in frames {
            let next = try await inbox.next()
            XCTAssertEqual(next, frame)
        }
        try await channel.close()
        let end = try await inbox.next()
        XCTAssertNil(end, "a closed channel ends the frames")
    }

    func testTheInboxThrowsAFrameErrorAfterTheFramesBeforeIt() async throws {
        let (channel, framed) = try await connectedChannel(maxFrameLength: 64 << 10)
        var stream = encoded([.message(.cancel, requestID: 3)])
        stream.writeMultipleIntegers(UInt32(1 << 20), UInt8(2), UInt8(0), UInt32(3))  // larger than 64 KiB
        try await channel.writeInbound(stream)
        let inbox = try XCTUnwrap(framed.inbox)
        let first = try await inbox.next()
        XCTAssertEqual(first, .message(.cancel, requestID: 3))
        do {
            _ = try await inbox.next()
            XCTFail("an oversize frame must end the frames with its error")
        } catch let error as FrameError {
            XCTAssertEqual(error, .frameTooLarge(length: 1 << 20, maximum: 64 << 10))
        }
        try await channel.close()
    }

    func testTheOutboxWritesWhatTheCodecEncodesWithLargePayloadsUncopied() async throws {
        let (channel, framed) = try await connectedChannel()
        let large = ByteBuffer(bytes: (0..<(FrameOutbox.copiedPayloadLimit + 1)).map { UInt8(truncatingIfNeeded: $0) })
        let frames: [Frame] = [
            .message(.cancel, requestID: 4),
            .data(large, requestID: 4, end: false),
            .data(ByteBuffer(bytes: [1, 2, 3]), requestID: 4, end: true),
        ]
        try await framed.outbox.send(frames)
        var written: [ByteBuffer] = []
        while let buffer = try await channel.readOutbound(as: ByteBuffer.self) { written.append(buffer) }
        // The small frame and the large one's header share a write, the payload goes as it is,
        // and the frame after it gets a write of its own.
        XCTAssertEqual(written.count, 3)
        XCTAssertEqual(written.dropFirst().first, large)
        var joined = ByteBuffer()
        for var buffer in written { joined.writeBuffer(&buffer) }
        XCTAssertEqual(joined, encoded(frames))
        try await channel.close()
    }

    func testAClosedChannelFailsASendInsteadOfLosingItSilently() async throws {
        let (channel, framed) = try await connectedChannel()
        try await channel.close()
        do {
            try await framed.outbox.send(.message(.cancel, requestID: 5))
            XCTFail("a send on a closed channel must fail")
        } catch let error as ChannelError {
            XCTAssertEqual(error, .ioOnClosedChannel)
        }
    }
}

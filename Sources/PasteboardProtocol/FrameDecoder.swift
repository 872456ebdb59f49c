import NIOCore

/// A NIO decoder that turns inbound bytes into `Frame`s, enforcing the maximum frame length.
public struct FrameDecoder: ByteToMessageDecoder, Sendable {
    public typealias InboundOut = Frame
    /// The largest length field accepted.
    public let maxFrameLength: Int

    /// Creates a decoder accepting frames up to `maxFrameLength`.
    public init(maxFrameLength: Int = ProtocolLimits.defaultMaxFrameLength) {
        self.maxFrameLength = maxFrameLength
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let frame = try FrameCodec.decode(from: &buffer, maxFrameLength: maxFrameLength) else { return .needMoreData }
        context.fireChannelRead(Self.wrapInboundOut(frame))
        return .continue
    }

    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}

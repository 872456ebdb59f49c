import NIOCore

/// A NIO outbound handler that writes `Frame`s: the 10-byte header, then the payload buffer
/// as it is (bulk bytes are never copied into a combined buffer). A payload of at most
/// `copiedPayloadLimit` bytes (a message, a small paste) is copied behind its header instead:
/// one buffer and one pending write, where two cost more than the copy.
public final class FrameEncoder: ChannelOutboundHandler, Sendable {
    public typealias OutboundIn = Frame
    public typealias OutboundOut = ByteBuffer

    /// The largest payload copied behind its header.
    static let copiedPayloadLimit = 2048

    /// Creates an encoder.
    public init() {}

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let frame = unwrapOutboundIn(data)
        let copied = frame.payload.readableBytes <= Self.copiedPayloadLimit
        let capacity = ProtocolLimits.lengthFieldSize + ProtocolLimits.headerLength + (copied ? frame.payload.readableBytes : 0)
        var header = context.channel.allocator.buffer(capacity: capacity)
        header.writeInteger(UInt32(frame.length))
        header.writeInteger(frame.kind.rawValue)
        header.writeInteger(frame.flags.rawValue)
        header.writeInteger(frame.requestID)
        if copied {
            header.writeImmutableBuffer(frame.payload)
            context.write(wrapOutboundOut(header), promise: promise)
        } else {
            context.write(wrapOutboundOut(header), promise: nil)
            context.write(wrapOutboundOut(frame.payload), promise: promise)
        }
    }
}

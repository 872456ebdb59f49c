import NIOCore

/// A NIO outbound handler that writes `Frame`s: the 10-byte header, then the payload buffer
/// as it is (bulk bytes are never copied into a combined buffer).
public final class FrameEncoder: ChannelOutboundHandler, Sendable {
    public typealias OutboundIn = Frame
    public typealias OutboundOut = ByteBuffer

    /// Creates an encoder.
    public init() {}

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let frame = unwrapOutboundIn(data)
        var header = context.channel.allocator.buffer(capacity: ProtocolLimits.lengthFieldSize + ProtocolLimits.headerLength)
        header.writeInteger(UInt32(frame.length))
        header.writeInteger(frame.kind.rawValue)
        header.writeInteger(frame.flags.rawValue)
        header.writeInteger(frame.requestID)
        if frame.payload.readableBytes == 0 {
            context.write(wrapOutboundOut(header), promise: promise)
        } else {
            context.write(wrapOutboundOut(header), promise: nil)
            context.write(wrapOutboundOut(frame.payload), promise: promise)
        }
    }
}

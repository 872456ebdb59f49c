import NIOCore

extension NIOAsyncChannel where Inbound == Frame, Outbound == Frame {
    /// Installs the frame decoder (enforcing `maxFrameLength`) and encoder on a freshly
    /// connected or accepted channel and wraps it for async use. Call on the channel's event loop.
    ///
    /// With `route`, each frame goes to it as soon as it is decoded, on the channel's loop, and
    /// the inbound stream carries none: it only ends with the connection, or fails with its
    /// error. A frame then reaches whoever waits for it without a task in between.
    public static func framed(
        _ channel: any Channel, maxFrameLength: Int, routingTo route: (@Sendable (Frame) -> Void)? = nil
    ) throws -> NIOAsyncChannel<Frame, Frame> {
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder(maxFrameLength: maxFrameLength)))
        try channel.pipeline.syncOperations.addHandler(FrameEncoder())
        if let route { try channel.pipeline.syncOperations.addHandler(FrameRoutingHandler(route: route)) }
        return try NIOAsyncChannel(wrappingChannelSynchronously: channel)
    }
}

/// Hands each inbound frame to a function instead of passing it on.
private final class FrameRoutingHandler: ChannelInboundHandler {
    typealias InboundIn = Frame
    typealias InboundOut = Frame

    private let route: @Sendable (Frame) -> Void

    init(route: @escaping @Sendable (Frame) -> Void) {
        self.route = route
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        route(unwrapInboundIn(data))
    }
}

/// How framed channels read from their socket.
public enum FramedReading {
    /// Reads of up to 1 MiB, growing from 16 KiB as traffic demands: a large data frame then
    /// arrives in one or two reads and is sliced out of the read buffer, instead of being
    /// gathered 64 KiB at a time (NIO's default) into a copy.
    public static let allocator = AdaptiveRecvByteBufferAllocator(minimum: 1024, initial: 16 << 10, maximum: 1 << 20)
}

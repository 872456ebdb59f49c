public import NIOCore

/// A connection's channel with frames as its unit: the inbox its frames arrive in (or the
/// function they are routed to), the outbox that sends them, and the async channel that
/// closes it all when the connection is done.
public struct FramedChannel: Sendable {
    /// The channel, for `executeThenClose`. Its inbound stream carries no frames (they go to
    /// the inbox or the route): it ends with the connection, or fails with its error.
    public let channel: NIOAsyncChannel<Frame, ByteBuffer>
    /// Where the frames arrive, in order; nil when they are routed.
    public let inbox: FrameInbox?
    /// Where frames go out: use it for every frame, never the async channel's own writer, so
    /// they stay in order.
    public let outbox: FrameOutbox

    /// Installs the outbox, then the inbox (which cuts frames out of the bytes, enforcing
    /// `maxFrameLength`), on a freshly connected or accepted channel and wraps it for async use.
    /// Call on the channel's event loop.
    ///
    /// Frames arrive in the inbox; with `route`, each goes to it instead, as soon as it is
    /// decoded, on the channel's loop, and reaches whoever waits for it without a task in between.
    public init(_ channel: any Channel, maxFrameLength: Int, routingTo route: (@Sendable (Frame) -> Void)? = nil) throws {
        let pipeline = channel.pipeline.syncOperations
        let outbox = FrameOutbox(eventLoop: channel.eventLoop)
        try pipeline.addHandler(outbox)
        self.outbox = outbox
        if let route {
            try pipeline.addHandler(FrameRoutingHandler(route: route, maxFrameLength: maxFrameLength))
            inbox = nil
        } else {
            let inbox = FrameInbox(eventLoop: channel.eventLoop, maxFrameLength: maxFrameLength)
            try pipeline.addHandler(inbox)
            self.inbox = inbox
        }
        self.channel = try NIOAsyncChannel(wrappingChannelSynchronously: channel)
    }
}

/// Cuts the inbound bytes into frames and hands each to a function instead of passing it on.
/// Bytes that break the framing rules are reported as the channel's error (`FrameError`).
private final class FrameRoutingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = Frame

    private let route: @Sendable (Frame) -> Void
    private var assembler: FrameAssembler

    init(route: @escaping @Sendable (Frame) -> Void, maxFrameLength: Int) {
        self.route = route
        self.assembler = FrameAssembler(maxFrameLength: maxFrameLength)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        do {
            try assembler.receive(unwrapInboundIn(data), deliver: route)
        } catch {
            context.fireErrorCaught(error)
        }
    }
}

/// How framed channels read from their socket.
public enum FramedReading {
    /// Reads of up to 1 MiB, growing from 16 KiB as traffic demands: a large data frame then
    /// arrives in one or two reads and is sliced out of the read buffer, instead of being
    /// gathered 64 KiB at a time (NIO's default) into a copy.
    public static let allocator = AdaptiveRecvByteBufferAllocator(minimum: 1024, initial: 16 << 10, maximum: 1 << 20)
}

public import NIOCore

/// Sends frames on a framed channel, in order, from any task.
///
/// A sender already on the channel's event loop (a task preferring `EventLoopTaskExecutor`)
/// hands a writable channel its frames at once and flushes, without suspending: no task switch,
/// no lock. Otherwise (another thread, or a channel above its high-water mark) the frames queue
/// in order and the sender waits until the channel takes them, which is the back-pressure
/// `NIOAsyncChannelOutboundWriter` gives, without its generic state machine on every frame.
///
/// The outbox encodes the frames itself: the 10-byte header, then the payload. A payload of at
/// most `copiedPayloadLimit` bytes (a message, a small paste) is copied behind its header, and
/// the frames of one send share one buffer: one pending write, where a buffer per header and
/// payload cost more than the copy. A larger payload goes out as it is (bulk bytes are never
/// copied).
///
/// The outbox is the channel handler that learns of writability and of the channel closing;
/// `FramedChannel` installs it first in the pipeline, so its writes go straight to the socket.
/// Its state is touched on the event loop only (a sender elsewhere hops to it), which is what
/// makes `@unchecked Sendable` sound: NIO calls a handler on its channel's loop alone.
public final class FrameOutbox: ChannelInboundHandler, @unchecked Sendable {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    /// The largest payload copied behind its header.
    static let copiedPayloadLimit = 2048

    private let allocator = ByteBufferAllocator()
    private let eventLoop: any EventLoop
    /// Set while the handler is in an active channel's pipeline; nil once it closed.
    private var context: ChannelHandlerContext?
    /// Sends waiting for the channel to become writable, oldest first.
    private var waiting = CircularBuffer<(frames: [Frame], promise: EventLoopPromise<Void>)>()

    package init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Sends `frame`; returns once the channel has taken it.
    nonisolated(nonsending) public func send(_ frame: Frame) async throws {
        if eventLoop.inEventLoop, waiting.isEmpty, let context, context.channel.isWritable {
            write(CollectionOfOne(frame), on: context)
            return
        }
        try await queue([frame])
    }

    /// Sends `frames` in order with one flush: one system call where the socket takes them all.
    nonisolated(nonsending) public func send(_ frames: [Frame]) async throws {
        if eventLoop.inEventLoop, waiting.isEmpty, let context, context.channel.isWritable {
            write(frames, on: context)
            return
        }
        try await queue(frames)
    }

    /// Encodes `frames` and writes them, then flushes.
    private func write(_ frames: some Collection<Frame>, on context: ChannelHandlerContext) {
        var bytes = allocator.buffer(capacity: frames.reduce(0) { $0 + Self.encodedSize(of: $1) })
        for frame in frames {
            if frame.payload.readableBytes <= Self.copiedPayloadLimit {
                FrameCodec.encode(frame, into: &bytes)
            } else {
                FrameCodec.encodeHeader(of: frame, into: &bytes)
                context.write(wrapOutboundOut(bytes), promise: nil)
                context.write(wrapOutboundOut(frame.payload), promise: nil)
                bytes = allocator.buffer(capacity: 0)  // the frames after it (FrameCodec.encode makes room)
            }
        }
        if bytes.readableBytes > 0 { context.write(wrapOutboundOut(bytes), promise: nil) }
        context.flush()
    }

    /// The bytes `frame` takes in the shared buffer: its header, and its payload when copied.
    private static func encodedSize(of frame: Frame) -> Int {
        let payload = frame.payload.readableBytes
        return ProtocolLimits.lengthFieldSize + ProtocolLimits.headerLength + (payload <= copiedPayloadLimit ? payload : 0)
    }

    /// Queues `frames` behind the sends already waiting, from any thread; waits until written.
    private func queue(_ frames: [Frame]) async throws {
        let promise = eventLoop.makePromise(of: Void.self)
        if eventLoop.inEventLoop {
            enqueue(frames, promise)
        } else {
            eventLoop.execute { self.enqueue(frames, promise) }
        }
        try await promise.futureResult.get()
    }

    private func enqueue(_ frames: [Frame], _ promise: EventLoopPromise<Void>) {
        guard context != nil else {
            promise.fail(ChannelError.ioOnClosedChannel)
            return
        }
        waiting.append((frames, promise))
        drain()
    }

    /// Writes waiting sends while the channel takes them.
    private func drain() {
        while let context, context.channel.isWritable, let next = waiting.popFirst() {
            write(next.frames, on: context)
            next.promise.succeed()
        }
    }

    /// Fails every waiting send: the channel closed.
    private func close() {
        context = nil
        while let next = waiting.popFirst() { next.promise.fail(ChannelError.ioOnClosedChannel) }
    }

    // MARK: Channel events

    public func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { self.context = context }
    }

    public func channelActive(context: ChannelHandlerContext) {
        self.context = context
        context.fireChannelActive()
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        close()
    }

    public func channelInactive(context: ChannelHandlerContext) {
        close()
        context.fireChannelInactive()
    }

    public func channelWritabilityChanged(context: ChannelHandlerContext) {
        drain()
        context.fireChannelWritabilityChanged()
    }
}

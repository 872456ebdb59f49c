public import NIOCore

/// Cuts a channel's inbound bytes into frames (see `FrameAssembler`) and hands them, in order,
/// to the one task that reads them.
///
/// A reader on the channel's event loop (a task preferring `EventLoopTaskExecutor`) takes a
/// frame that has already arrived without suspending; only an empty inbox suspends it, and the
/// next frame resumes it. `NIOAsyncChannelInboundStream` instead runs every frame through a
/// locked, generic state machine and a suspension. Back-pressure is the same: past
/// `highWatermark` buffered frames the channel stops reading from its socket, and it reads again
/// once the reader has brought them down to `lowWatermark`.
///
/// `FramedChannel` installs the inbox as a channel handler; its state is touched on the event
/// loop only (a reader elsewhere hops to it), which is what makes `@unchecked Sendable` sound:
/// NIO calls a handler on its channel's loop alone.
public final class FrameInbox: ChannelDuplexHandler, @unchecked Sendable {
    public typealias InboundIn = ByteBuffer
    public typealias OutboundIn = Never

    /// Frames buffered before the channel stops reading (as `NIOAsyncChannel`'s default).
    static let highWatermark = 10
    /// Frames left when it reads again.
    static let lowWatermark = 2

    private let eventLoop: any EventLoop
    private var context: ChannelHandlerContext?
    private var assembler: FrameAssembler
    private var buffered = CircularBuffer<Frame>(initialCapacity: 4)
    /// The reader, suspended on an empty inbox.
    private var reader: CheckedContinuation<Frame?, any Error>?
    /// How the frames ended: nil (the channel closed) or the error that broke them.
    private var end: Result<Frame?, any Error>?
    /// A read the channel asked for while the inbox was full, made when it drains.
    private var readHeld = false

    /// An inbox accepting frames up to `maxFrameLength`.
    init(eventLoop: any EventLoop, maxFrameLength: Int) {
        self.eventLoop = eventLoop
        self.assembler = FrameAssembler(maxFrameLength: maxFrameLength)
    }

    /// The next frame; nil once the channel has closed and every frame is read. Throws the
    /// error that broke the connection (a `FrameError` for bytes that break the framing rules,
    /// a failed read), or `CancellationError` when the reading task is cancelled while it waits.
    nonisolated(nonsending) public func next() async throws -> Frame? {
        if eventLoop.inEventLoop {
            if let frame = take() { return frame }
            if let end { return try end.get() }
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if eventLoop.inEventLoop {
                    wait(continuation)
                } else {
                    eventLoop.execute { self.wait(continuation) }
                }
            }
        } onCancel: {
            eventLoop.execute { self.cancelReader() }
        }
    }

    /// The oldest buffered frame, reading again once the buffer has drained enough.
    private func take() -> Frame? {
        guard let frame = buffered.popFirst() else { return nil }
        if readHeld, buffered.count <= Self.lowWatermark, let context {
            readHeld = false
            context.read()
        }
        return frame
    }

    private func wait(_ continuation: CheckedContinuation<Frame?, any Error>) {
        if let frame = take() {
            continuation.resume(returning: frame)
        } else if let end {
            continuation.resume(with: end)
        } else {
            precondition(reader == nil, "FrameInbox has one reader")
            reader = continuation
        }
    }

    private func cancelReader() {
        guard let reader else { return }
        self.reader = nil
        reader.resume(throwing: CancellationError())
    }

    private func finish(_ result: Result<Frame?, any Error>) {
        guard end == nil else { return }
        end = result
        if buffered.isEmpty, let reader {
            self.reader = nil
            reader.resume(with: result)
        }
    }

    // MARK: Channel events

    public func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        finish(.success(nil))
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        do {
            try assembler.receive(unwrapInboundIn(data)) { frame in
                if let reader {
                    self.reader = nil
                    reader.resume(returning: frame)
                } else {
                    buffered.append(frame)
                }
            }
        } catch {
            finish(.failure(error))  // after the frames that came before the fault
        }
    }

    public func read(context: ChannelHandlerContext) {
        if buffered.count >= Self.highWatermark {
            readHeld = true
        } else {
            context.read()
        }
    }

    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(error))
    }

    public func channelInactive(context: ChannelHandlerContext) {
        finish(.success(nil))
        context.fireChannelInactive()
    }
}

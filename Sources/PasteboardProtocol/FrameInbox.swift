import NIOCore

/// Hands a channel's inbound frames, in order, to the one task that reads them.
///
/// A reader on the channel's event loop (a task preferring `EventLoopTaskExecutor`) takes a
/// frame that has already arrived without suspending; only an empty inbox suspends it, and the
/// next frame resumes it. `NIOAsyncChannelInboundStream` instead runs every frame through a
/// locked, generic state machine and a suspension. Back-pressure is the same: past
/// `highWatermark` buffered frames the channel stops reading from its socket, and it reads again
/// once the reader has brought them down to `lowWatermark`.
///
/// `FramedChannel` installs the inbox as a channel handler; its state is touched on the event
/// loop only.
public final class FrameInbox: ChannelDuplexHandler, @unchecked Sendable {
    public typealias InboundIn = Frame
    public typealias OutboundIn = Never

    /// Frames buffered before the channel stops reading (as `NIOAsyncChannel`'s default).
    static let highWatermark = 10
    /// Frames left when it reads again.
    static let lowWatermark = 2

    private let eventLoop: any EventLoop
    private var context: ChannelHandlerContext?
    private var buffered = CircularBuffer<Frame>(initialCapacity: 4)
    /// The reader, suspended on an empty inbox.
    private var reader: CheckedContinuation<Frame?, any Error>?
    /// How the frames ended: nil (the channel closed) or the error that broke them.
    private var end: Result<Frame?, any Error>?
    /// A read the channel asked for while the inbox was full, made when it drains.
    private var readHeld = false

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// The next frame; nil once the channel has closed and every frame is read. Throws the
    /// error that broke the connection (a frame the decoder refused, a failed read), or
    /// `CancellationError` when the reading task is cancelled while it waits.
    public func next() async throws -> Frame? {
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
        let frame = unwrapInboundIn(data)
        if let reader {
            self.reader = nil
            reader.resume(returning: frame)
        } else {
            buffered.append(frame)
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

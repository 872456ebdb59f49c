internal import NIOCore
internal import NIOPosix
import Pasteboard
internal import PasteboardProtocol
import Synchronization

/// A link session over a pair of descriptors (ssh's output and input, or this process's own
/// standard input and output when ssh started it): framed with the daemon protocol's frames,
/// each frame given to the session as it is decoded, on the stream's event loop.
enum LinkStream {
    /// Runs `LinkSession` over `input` and `output` (taken over: closed at the end) until the
    /// link ends; throws why it ended.
    static func run(input: Int32, output: Int32, connection: PasteboardConnection, settings: LinkSettings, role: LinkRole,
                    reporter: LinkStatusReporter, handshakeTimeout: Duration) async throws {
        let route = FrameRoute()
        // The handlers go in before the channel reads: the other end's hello may already wait.
        let framedBox = Mutex<FramedChannel?>(nil)
        let channel = try await NIOPipeBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                do {
                    let framed = try FramedChannel(channel, maxFrameLength: ProtocolLimits.defaultMaxFrameLength, routingTo: { route.deliver($0) })
                    // Last, so it sees what the framing reports: bytes that are not frames.
                    try channel.pipeline.syncOperations.addHandler(FrameErrorRoute(route: route))
                    framedBox.withLock { $0 = framed }
                    return channel.eventLoop.makeSucceededVoidFuture()
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
            }
            .takingOwnershipOfDescriptors(input: input, output: output).get()
        guard let framed = framedBox.withLock({ $0 }) else {
            try? await channel.close()
            throw LinkError("the link's stream could not be set up")
        }
        // Through executeThenClose, which finishes the async channel's writer and closes it however
        // the link ends: dropped while still open (a handshake that timed out, a peer that stopped
        // answering pings), the writer trapped ("Deinited NIOAsyncWriter without calling finish()").
        try await framed.channel.executeThenClose { _, _ in
            let session = LinkSession(connection: connection, outbox: framed.outbox, settings: settings, role: role, reporter: reporter)
            session.onProtocolViolation { _ in channel.close(promise: nil) }
            try await channel.eventLoop.submit { route.attach(session) }.get()
            // The frames go to the session; the channel's end is the link's.
            channel.closeFuture.whenComplete { _ in session.streamClosed() }
            try await session.run(handshakeTimeout: handshakeTimeout)
        }
    }
}

/// Where the frames of a link go: held until the session exists, then straight to it; and the
/// framing's failure (bytes that are not frames), which ends the link with its reason.
private final class FrameRoute: Sendable {
    private let state = Mutex<(session: LinkSession?, pending: [Frame], failure: FrameError?)>((nil, [], nil))

    func deliver(_ frame: Frame) {
        let session: LinkSession? = state.withLock { state in
            if state.session == nil { state.pending.append(frame) }
            return state.session
        }
        session?.receive(frame)
    }

    /// The other end's bytes broke the framing: the session ends the link saying so (once attached).
    func fail(_ error: FrameError) {
        let session: LinkSession? = state.withLock { state in
            if state.session == nil, state.failure == nil { state.failure = error }
            return state.session
        }
        session?.breakLink(ProtocolError(error.code, error.description))
    }

    func attach(_ session: LinkSession) {
        let (pending, failure) = state.withLock { state in
            state.session = session
            defer { state.pending = []; state.failure = nil }
            return (state.pending, state.failure)
        }
        for frame in pending { session.receive(frame) }
        if let failure { session.breakLink(ProtocolError(failure.code, failure.description)) }
    }
}

/// Passes the framing's errors to the route: without it they reach only the async channel's
/// stream, which a link does not read, and the link failed with NIO's "I/O on closed channel"
/// instead of what the other end sent (a shell's greeting on ssh's output, a frame too large).
private final class FrameErrorRoute: ChannelInboundHandler, Sendable {
    typealias InboundIn = Frame

    private let route: FrameRoute

    init(route: FrameRoute) { self.route = route }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? FrameError { route.fail(error) }
        context.fireErrorCaught(error)
    }
}

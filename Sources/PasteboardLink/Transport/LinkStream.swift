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
        let session = LinkSession(connection: connection, outbox: framed.outbox, settings: settings, role: role, reporter: reporter)
        session.onProtocolViolation { _ in channel.close(promise: nil) }
        try await channel.eventLoop.submit { route.attach(session) }.get()
        try await framed.channel.executeThenClose { inbound, _ in
            try await withThrowingTaskGroup(of: Void.self) { group in
                // The frames go to the session as they are cut; the inbound stream only ends,
                // or fails with bytes that are no frames (garbage, a length over the limit).
                group.addTask {
                    do {
                        for try await _ in inbound {}
                    } catch let error as FrameError {
                        session.breakLink(ProtocolError(error.code, error.description))
                    } catch {}
                    session.streamClosed()
                }
                defer { group.cancelAll() }
                try await session.run(handshakeTimeout: handshakeTimeout)
            }
        }
    }
}

/// Where the frames of a link go: held until the session exists, then straight to it.
private final class FrameRoute: Sendable {
    private let state = Mutex<(session: LinkSession?, pending: [Frame])>((nil, []))

    func deliver(_ frame: Frame) {
        let session: LinkSession? = state.withLock { state in
            if state.session == nil { state.pending.append(frame) }
            return state.session
        }
        session?.receive(frame)
    }

    func attach(_ session: LinkSession) {
        let pending = state.withLock { state in
            state.session = session
            defer { state.pending = [] }
            return state.pending
        }
        for frame in pending { session.receive(frame) }
    }
}

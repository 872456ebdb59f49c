#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
internal import NIOCore

/// Reads a Unix socket channel's peer credentials (SO_PEERCRED) the moment its connection is
/// up, on the channel's loop, before any byte is read or written.
///
/// Read later, they may be gone: a peer that answers at once and hangs up (a daemon refusing
/// the connection) makes NIO close the channel, and with it the descriptor the credentials are
/// read from, before the caller can look. `SocketTrust` checks what this reads.
final class PeerCredentialsReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    /// The peer's credentials, or why they could not be read.
    let credentials: EventLoopFuture<pasteboard_ucred>
    private let promise: EventLoopPromise<pasteboard_ucred>
    private var isSettled = false

    init(eventLoop: any EventLoop) {
        promise = eventLoop.makePromise()
        credentials = promise.futureResult
    }

    func channelActive(context: ChannelHandlerContext) {
        read(context)
        context.fireChannelActive()
    }

    /// Added to a channel that is already up, the reader reads at once (it would never see
    /// `channelActive`).
    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { read(context) }
    }

    private func read(_ context: ChannelHandlerContext) {
        guard !isSettled else { return }
        isSettled = true
        if let provider = context.channel as? any SocketOptionProvider {
            // On the loop, the option is read at once: the future is already complete.
            provider.unsafeGetSocketOption(level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(pasteboard_so_peercred()))
                .cascade(to: promise)
        } else {
            promise.fail(IOError(errnoCode: EOPNOTSUPP, reason: "SO_PEERCRED"))
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        // The connection never came up (or closed before it did): nobody to check.
        if !isSettled {
            isSettled = true
            promise.fail(ChannelError.ioOnClosedChannel)
        }
    }
}

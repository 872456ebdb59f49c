import CPasteboardSystem
import NIOCore

/// The process on the other end of a Unix socket, as the kernel reports it (SO_PEERCRED).
struct PeerCredentials: Sendable {
    let pid: Int32
    let uid: UInt32
    let gid: UInt32

    /// Reads the credentials of `channel`'s peer. Called on the channel's event loop (in the
    /// child channel initializer), the future is already complete: no hop to the loop and back.
    static func of(_ channel: any Channel) -> EventLoopFuture<PeerCredentials> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(DaemonError.system(operation: "SO_PEERCRED", path: "(channel)", errno: 95))
        }
        let raw: EventLoopFuture<pasteboard_ucred> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(pasteboard_so_peercred())
        )
        return raw.map { PeerCredentials(pid: $0.pid, uid: $0.uid, gid: $0.gid) }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

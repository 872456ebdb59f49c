import CPasteboardSystem
import NIOCore

/// The process on the other end of a Unix socket, as the kernel reports it (SO_PEERCRED).
struct PeerCredentials: Sendable {
    let pid: Int32
    let uid: UInt32
    let gid: UInt32

    /// Reads the credentials of `channel`'s peer.
    static func of(_ channel: any Channel) async throws -> PeerCredentials {
        guard let provider = channel as? any SocketOptionProvider else {
            throw DaemonError.system(operation: "SO_PEERCRED", path: "(channel)", errno: 95)
        }
        let raw: pasteboard_ucred = try await provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(pasteboard_so_peercred())
        ).get()
        return PeerCredentials(pid: raw.pid, uid: raw.uid, gid: raw.gid)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

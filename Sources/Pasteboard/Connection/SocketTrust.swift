#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
import PasteboardSystem
internal import NIOCore
internal import PasteboardProtocol

/// What a client checks before it sends a byte on a socket: that the socket is its own user's.
///
/// Another user who listens on the socket path first — on the `/tmp/pasteboard-$UID` fallback,
/// or in a shared or misconfigured runtime directory, where the real daemon then refuses to
/// start — would otherwise be handed every copy, sensitive ones included, and choose what every
/// paste prints. So:
/// - the peer of every socket the client connects to (the daemon's socket, the hand-off socket)
///   must run as the client's own uid (SO_PEERCRED), whatever the path: `checkPeer`;
/// - the directory of a path the client derives itself (`SocketLocation.currentDerivedSocketPath()`)
///   must be the user's own and writable by no one else, as the daemon makes it, before the
///   client connects there or starts a daemon there: `checkDirectory`.
///
/// An explicit `PASTEBOARD_SOCKET` may lie in a shared sticky directory (`ssh -R
/// /tmp/pb-$USER.sock:…`, where sshd makes the socket as the user, mode 0600): its directory is
/// not checked, and its peer's uid decides. Root gets no exception: a daemon serves only its own
/// user, so another uid's listener, root's included, is never the client's daemon.
enum SocketTrust {
    /// Refuses `socketPath` when it is the path derived from the environment and its directory
    /// exists but is not a directory, is owned by another uid, or is writable by group or
    /// others. A missing directory passes: nothing listens there, and a daemon started there
    /// creates it private.
    static func checkDirectory(ofSocket socketPath: String) throws(PasteboardError) {
        guard socketPath == SocketLocation.currentDerivedSocketPath() else { return }
        // The directory as a C string cut from the path's bytes: Character-wise String
        // operations cost a short-lived `pb paste` thousands of instructions more (callgrind).
        var cut = Array(socketPath.utf8CString)
        guard let slash = cut.lastIndex(of: CChar(UInt8(ascii: "/"))) else { return }
        cut[slash == 0 ? 1 : slash] = 0
        let directoryBytes = cut
        var directory: String { String(decoding: socketPath.utf8.prefix(max(slash, 1)), as: UTF8.self) }  // for messages only
        var info = stat()
        guard stat(directoryBytes, &info) == 0 else {
            let code = errno
            if code == ENOENT { return }
            throw .untrustedSocket(socketPath: socketPath, reason: "cannot check its directory \(directory): \(SystemError.describe(code))")
        }
        let own = getuid()
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw .untrustedSocket(socketPath: socketPath, reason: "\(directory) is not a directory (its owner is uid \(info.st_uid))")
        }
        guard info.st_uid == own else {
            throw .untrustedSocket(
                socketPath: socketPath,
                reason: "its directory \(directory) is owned by uid \(info.st_uid), not by this user (uid \(own)): another user may be listening there in pasteboardd's place"
            )
        }
        guard info.st_mode & 0o022 == 0 else {
            throw .untrustedSocket(
                socketPath: socketPath,
                reason: "its directory \(directory), owned by uid \(info.st_uid), is writable by group or others (mode \(String(info.st_mode & 0o7777, radix: 8))): another user could listen there in pasteboardd's place"
            )
        }
    }

    /// Refuses the connected Unix socket `descriptor` unless its peer runs as this process's uid.
    static func checkPeer(descriptor: Int32, socketPath: String) throws(PasteboardError) {
        var peer = pasteboard_ucred()
        guard pasteboard_peer_credentials(descriptor, &peer) == 0 else {
            throw .untrustedSocket(socketPath: socketPath, reason: "cannot read its peer's credentials: \(SystemError.current)")
        }
        try checkPeer(uid: peer.uid, socketPath: socketPath)
    }

    /// Refuses a connection unless its peer runs as this process's uid; `credentials` are what
    /// `PeerCredentialsReader` read when the connection came up.
    static func checkPeer(_ credentials: EventLoopFuture<pasteboard_ucred>, socketPath: String) async throws(PasteboardError) {
        let peer: pasteboard_ucred
        do {
            peer = try await credentials.get()
        } catch {
            throw .untrustedSocket(socketPath: socketPath, reason: "cannot read its peer's credentials: \(ErrorMessage.text(for: error))")
        }
        try checkPeer(uid: peer.uid, socketPath: socketPath)
    }

    private static func checkPeer(uid: UInt32, socketPath: String) throws(PasteboardError) {
        let own = getuid()
        guard uid == own else {
            throw .untrustedSocket(
                socketPath: socketPath,
                reason: "the process listening there runs as uid \(uid), not as this user (uid \(own)): another user may be posing as pasteboardd"
            )
        }
    }
}

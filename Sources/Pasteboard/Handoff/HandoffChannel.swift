#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
internal import PasteboardProtocol
import PasteboardSystem
import Synchronization

/// This connection's hand-off socket: attached with the token from `welcome`, it receives the
/// sockets of handed-off transfers (SCM_RIGHTS), each with the request id it belongs to.
///
/// It is attached only to the daemon the connection itself talks to: the socket's peer must
/// be the `welcome`'s pid. Through a forwarded socket (`ssh -R`, socat) the daemon offers no
/// hand-off (the main socket's peer is the forwarder, not the pid in `hello`), and on another
/// machine the path would not exist or belong to another daemon; loads then stream in-band.
/// Setting `PASTEBOARD_HANDOFF=0` turns hand-off off for a process.
final class HandoffChannel: Sendable {
    private let socket: Int32
    /// Descriptors received for other requests than the one being looked for.
    private let stash = Mutex<[UInt32: Int32]>([:])

    private init(socket: Int32) {
        self.socket = socket
    }

    /// Whether a load on a connection that was welcomed with `welcome` may ask for hand-off
    /// (`read`'s `handoff`): the daemon offered it and this process has not turned it off. The
    /// socket itself is attached only when the daemon asks (`attach`), so a load that is never
    /// handed off (a stored item) costs no second connection.
    static func mayAsk(_ welcome: Welcome) -> Bool {
        welcome.handoff != nil && isEnabled
    }

    /// False when `PASTEBOARD_HANDOFF=0` turns hand-off off for this process.
    static var isEnabled: Bool {
        ProcessEnvironment.value("PASTEBOARD_HANDOFF") != "0"
    }

    /// Connects to `offer.path`, checks the peer is `daemonPID` and runs as this user (as every
    /// socket the client writes to; see `SocketTrust`), and writes the token; nil when any step
    /// fails or hand-off is turned off.
    static func attach(_ offer: HandoffOffer, daemonPID: Int32) -> HandoffChannel? {
        guard isEnabled else { return nil }
        let fd = pasteboard_unix_socket(offer.path, -1)
        guard fd >= 0 else { return nil }
        var peer = pasteboard_ucred()
        let token = Array(offer.token.utf8)
        guard token.count == 32, pasteboard_peer_credentials(fd, &peer) == 0, peer.pid == daemonPID,
              peer.uid == getuid(), writeAll(token, to: fd)
        else {
            close(fd)
            return nil
        }
        // A send into a transfer socket whose reader left must fail with EPIPE, not end the process.
        pasteboard_ignore_sigpipe()
        return HandoffChannel(socket: fd)
    }

    /// The descriptor the daemon passed for request `id`. The daemon passes it before the frame
    /// that announces it, so it is already queued; waits at most a few seconds all the same.
    func descriptor(for id: UInt32) throws -> Int32 {
        try stash.withLock { stash in
            if let fd = stash.removeValue(forKey: id) { return fd }
            while true {
                var ready = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 5_000) == 1 else {
                    throw PasteboardError.connectionLost("no transfer socket arrived on the hand-off socket for request \(id)")
                }
                var payload: UInt32 = 0
                var fd: Int32 = -1
                let received = pasteboard_receive_descriptor(socket, &payload, 4, &fd, 0)
                guard received == 4 else {
                    if fd >= 0 { close(fd) }
                    throw PasteboardError.connectionLost("the hand-off socket closed")
                }
                guard fd >= 0 else { continue }
                let owner = UInt32(bigEndian: payload)
                if owner == id { return fd }
                if let stale = stash.updateValue(fd, forKey: owner) { close(stale) }
            }
        }
    }

    deinit {
        close(socket)
        for fd in stash.withLock({ Array($0.values) }) { close(fd) }
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
import Logging
import PasteboardProtocol
import PasteboardSystem
import Synchronization

/// The daemon's hand-off socket, `<socket>.handoff` beside the main one (mode 0600): a client
/// connects, writes the 32-character token from its `welcome`, and from then on receives the
/// ends for its handed-off transfers on that connection.
///
/// SwiftNIO cannot pass descriptors, so this socket is served by a thread of its own (a
/// `BlockingWork` loop) with plain blocking calls: accept, read the token (at most a second),
/// check the peer's uid, and hand the socket to the connection that owns the token. Unknown tokens are closed.
final class HandoffListener: Sendable {
    /// The socket's path.
    let path: String
    private let listening: Int32
    private let endpoints = Mutex<[String: HandoffEndpoint]>([:])
    /// Tokens of connections that ended lately: a short-lived client (a 16-byte `pb paste`)
    /// may be gone before its hand-off connection is read, which is no cause for a notice.
    private let recentlyEnded = Mutex<[String]>([])
    private let logger: Logger

    /// The hand-off socket's path for the main socket at `socketPath`.
    static func path(for socketPath: String) -> String { socketPath + ".handoff" }

    /// Binds and listens (replacing a stale socket file: the caller holds the instance lock).
    init(socketPath: String, logger: Logger) throws(DaemonError) {
        path = Self.path(for: socketPath)
        self.logger = logger
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFSOCK { unlink(path) }
        let previousMask = umask(0o177)
        let fd = pasteboard_unix_socket(path, 1024)
        let code = errno
        umask(previousMask)
        guard fd >= 0 else { throw DaemonError.system(operation: "bind", path: path, errno: code) }
        listening = fd
    }

    /// A new endpoint whose token this listener accepts until `unregister`.
    func register() -> HandoffEndpoint {
        let endpoint = HandoffEndpoint()
        endpoints.withLock { $0[endpoint.token] = endpoint }
        return endpoint
    }

    /// Forgets `endpoint` and closes its socket (its connection ended).
    func unregister(_ endpoint: HandoffEndpoint) {
        endpoints.withLock { _ = $0.removeValue(forKey: endpoint.token) }
        recentlyEnded.withLock { tokens in
            if tokens.count == 64 { tokens.removeFirst() }
            tokens.append(endpoint.token)
        }
        endpoint.close()
    }

    /// What a client sees in `welcome` for `endpoint`.
    func offer(for endpoint: HandoffEndpoint) -> HandoffOffer {
        HandoffOffer(path: path, token: endpoint.token)
    }

    /// Starts the accepting loop on a thread of its own (`BlockingWork`).
    func start() {
        guard BlockingWork.start({ self.acceptLoop() }) else {
            return logger.warning("hand-off disabled: cannot start its thread")
        }
    }

    /// Stops accepting (wakes the thread) and removes the socket file.
    func stop() {
        shutdown(listening, Int32(SHUT_RDWR))
        unlink(path)
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listening, nil, nil)
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE {
                    if errno == EMFILE || errno == ENFILE { usleep(10_000) }
                    continue
                }
                break  // shut down
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            attach(fd)
        }
        Glibc.close(listening)
    }

    /// Reads the token from a new hand-off connection and gives the socket to its endpoint.
    private func attach(_ fd: Int32) {
        var credentials = pasteboard_ucred()
        guard pasteboard_peer_credentials(fd, &credentials) == 0, credentials.uid == getuid() else {
            logger.warning("refused a hand-off connection from another user", metadata: ["peer.uid": "\(credentials.uid)"])
            Glibc.close(fd)
            return
        }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var token = [UInt8](repeating: 0, count: 32)
        var received = 0
        while received < token.count {
            let count = token.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + received, $0.count - received) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            received += count
        }
        let key = String(decoding: token, as: UTF8.self)
        guard received == token.count, let endpoint = endpoints.withLock({ $0[key] }) else {
            if received == token.count, recentlyEnded.withLock({ $0.contains(key) }) {
                logger.debug("closed a hand-off connection whose connection had already ended", metadata: ["peer.pid": "\(credentials.pid)"])
            } else {
                logger.notice("closed a hand-off connection without a valid token", metadata: ["peer.pid": "\(credentials.pid)"])
            }
            Glibc.close(fd)
            return
        }
        endpoint.attach(fd)
    }
}

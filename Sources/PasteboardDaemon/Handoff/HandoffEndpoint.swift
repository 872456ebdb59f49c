#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
import PasteboardProtocol
import PasteboardSystem
import Synchronization

/// One connection's hand-off socket, as the daemon sees it: the socket the client attached
/// with the token from its `welcome`, over which the daemon passes transfer sockets (SCM_RIGHTS),
/// each with the 4-byte request id it belongs to.
final class HandoffEndpoint: Sendable {
    /// The secret the client writes to attach: 32 lowercase hexadecimal characters.
    let token: String
    private enum State {
        case waiting
        case attached(Int32)
        case closed
    }

    private let state = Mutex(State.waiting)
    private let attached = Latch()

    init() {
        var generator = SystemRandomNumberGenerator()
        token = (0..<2).map { _ in
            let word = generator.next() as UInt64
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    /// The client attached `fd`; a second socket for the same connection, or one arriving after
    /// the connection ended, is closed.
    func attach(_ fd: Int32) {
        let accepted = state.withLock { state -> Bool in
            guard case .waiting = state else { return false }
            state = .attached(fd)
            return true
        }
        if accepted { attached.open() } else { _ = Glibc.close(fd) }
    }

    /// True once the client attached its socket; waits up to `limit` for it.
    func waitUntilAttached(upTo limit: Duration) async -> Bool {
        await attached.wait(upTo: limit)
        return isAttached
    }

    /// True while the client's socket is attached.
    var isAttached: Bool {
        state.withLock { state in
            if case .attached = state { return true }
            return false
        }
    }

    /// Passes `descriptor` to the client for request `id`. Never blocks: a client whose socket
    /// buffer is full, or that closed its socket, makes this throw.
    func send(_ descriptor: Int32, for id: UInt32) throws(ProtocolError) {
        var payload = id.bigEndian
        let sent = state.withLock { state -> Int in
            guard case .attached(let socket) = state else { errno = ENOTCONN; return -1 }
            return pasteboard_send_descriptor(socket, &payload, 4, descriptor)
        }
        guard sent == 4 else {
            throw ProtocolError(.sourceUnavailable, "cannot pass a descriptor over the hand-off socket: \(SystemError.current)")
        }
    }

    /// Closes the socket (the connection ended).
    func close() {
        let previous = state.withLock { state -> State in
            defer { state = .closed }
            return state
        }
        if case .attached(let fd) = previous { _ = Glibc.close(fd) }
        attached.open()
    }
}

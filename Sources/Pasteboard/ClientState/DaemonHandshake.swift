#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import PasteboardProtocol

/// The client's side of the handshake, free of I/O: the `hello` to send, and the checks on the
/// daemon's answer.
///
/// `BlockingConnection` and `PasteboardConnection` send the same `hello` and judge the answer
/// here, so the two accept and refuse the same daemons with the same words; each only moves
/// the frames in its own way (a blocking socket, an event loop).
enum DaemonHandshake {
    /// The `hello` that opens a connection as `client`, of application `app` (default: the
    /// client's own name, as the daemon takes it).
    static func hello(client: String, app: String? = nil) -> Frame {
        .message(.hello(Hello(client: client, pid: getpid(), app: app)), requestID: 0)
    }

    /// The daemon's `welcome` in `reply`, the first frame it sent.
    ///
    /// Throws the daemon's error when it refused the `hello` (over its connection limit, a bad
    /// name), `versionMismatch` when it speaks another protocol version, `malformedMessage`
    /// when its announced limits are out of range (they size this client's buffers), and
    /// `connectionLost` when it answered something else.
    static func welcome(from reply: Frame) throws(PasteboardError) -> Welcome {
        guard reply.requestID == 0, reply.kind == .message else {
            throw PasteboardError.connectionLost("the daemon did not answer hello with welcome")
        }
        let answer: Message
        do {
            answer = try reply.decodeMessage()
        } catch {
            throw PasteboardError.daemon(error)
        }
        switch answer {
        case .welcome(let welcome):
            guard welcome.version == ProtocolVersion.current else {
                throw PasteboardError.daemon(ProtocolError(
                    .versionMismatch, "pasteboardd speaks protocol version \(welcome.version), this client \(ProtocolVersion.current)"
                ))
            }
            if let failure = welcome.limitsFailure { throw PasteboardError.daemon(ProtocolError(.malformedMessage, failure)) }
            return welcome
        case .error(let error):
            throw PasteboardError.daemon(error)
        default:
            throw PasteboardError.connectionLost("the daemon did not answer hello with welcome")
        }
    }
}

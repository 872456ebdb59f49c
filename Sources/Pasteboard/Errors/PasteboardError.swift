internal import PasteboardProtocol

/// Why a pasteboard operation failed, as the client library reports it.
public enum PasteboardError: Error, Sendable, CustomStringConvertible {
    /// No daemon answers on the socket (and none could be started).
    case daemonUnreachable(socketPath: String, reason: String)
    /// The socket at `socketPath`, or the directory it lies in, belongs to another user: another
    /// user may be listening there in the daemon's place, so nothing was sent (see `SocketTrust`).
    /// `reason` names what is wrong and whose it is.
    case untrustedSocket(socketPath: String, reason: String)
    /// The daemon refused the request: `code` is stable and may be matched on, `message` is for humans.
    case daemon(code: Code, message: String)
    /// The connection broke in the middle of a request.
    case connectionLost(String)
    /// Local input was unusable (a file that cannot be read, an output that cannot be written).
    case io(String)

    public var description: String {
        switch self {
        case .daemonUnreachable(let path, let reason): "cannot reach pasteboardd at \(path): \(reason)"
        case .untrustedSocket(let path, let reason): "refusing to talk to \(path): \(reason); nothing was sent"
        case .daemon(_, let message): message
        case .connectionLost(let reason): "lost the connection to pasteboardd: \(reason)"
        case .io(let message): message
        }
    }

    /// The daemon's error code, when the daemon reported this error.
    public var code: Code? {
        if case .daemon(let code, _) = self { return code }
        return nil
    }

    /// The daemon's refusal `error`.
    static func daemon(_ error: ProtocolError) -> PasteboardError {
        .daemon(code: Code(rawValue: error.code.rawValue), message: error.message)
    }

    /// A refusal with `code` and `message`, as the daemon would have sent it.
    static func daemon(_ code: ErrorCode, _ message: String) -> PasteboardError {
        .daemon(code: Code(rawValue: code.rawValue), message: message)
    }
}

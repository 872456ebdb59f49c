import NIOCore
import PasteboardJSON
import PasteboardProtocol
import PasteboardTypes

/// The first frame of a connection: the client's `hello`, checked before anything else is read.
enum ClientHandshake {
    /// The first frame's `hello`, when it is one the daemon speaks.
    ///
    /// A first frame that is no `hello` (a data frame, another request id, another or an unknown
    /// `op`) is `handshake-required`; one whose `op` is `hello` but whose fields are wrong (a
    /// required one missing, a wrong type), or that is no JSON object at all, is
    /// `malformed-message`, naming the field. Both end the connection.
    static func hello(in frame: Frame) throws -> Hello {
        let required = ProtocolError(.handshakeRequired, "the first frame must be a hello message on request id 0")
        guard frame.kind == .message, frame.requestID == 0 else { throw required }
        let message: Message
        switch Result(catching: { () throws(ProtocolError) in try frame.decodeMessage() }) {
        case .success(let decoded): message = decoded
        case .failure(let error):
            // Malformed is for a hello (or no JSON object with an op at all); any other op, known
            // or not and whatever its fields, is no handshake.
            guard error.code != .unknownMessage else { throw required }
            if let op = op(of: frame.payload), op != "hello" { throw required }
            throw error
        }
        guard case .hello(let hello) = message else { throw required }
        guard hello.version == ProtocolVersion.current else {
            throw ProtocolError(
                .versionMismatch,
                "the daemon speaks protocol version \(ProtocolVersion.current), the client \(hello.version)"
            )
        }
        return hello
    }

    /// The `op` of a message payload that is a JSON object with a string `op`; nil otherwise.
    private static func op(of payload: ByteBuffer) -> String? {
        guard case .object(let members)? = try? JSONValue.parse(payload.readableBytesView), case .string(let op)? = members["op"] else {
            return nil
        }
        return op
    }
}

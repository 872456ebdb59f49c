internal import PasteboardProtocol

extension PasteboardConnection {
    /// Sends `message` as a new request and returns the daemon's one answer; an `error` answer
    /// is thrown as `PasteboardError.daemon`.
    func answer(to message: Message, keepingErrors: Bool = false) async throws -> Message {
        let (id, frames) = openRequest()
        defer { closeRequest(id) }
        try await send(message, on: id)
        for try await frame in frames where frame.kind == .message {
            let reply = try frame.decodeMessage()
            if !keepingErrors, case .error(let error) = reply { throw PasteboardError.daemon(error) }
            return reply
        }
        throw PasteboardError.connectionLost("the daemon closed the connection before answering")
    }

    /// The error for an answer of the wrong kind.
    static func unexpected(_ message: Message) -> PasteboardError {
        .connectionLost("unexpected '\(message.op)' from the daemon")
    }
}

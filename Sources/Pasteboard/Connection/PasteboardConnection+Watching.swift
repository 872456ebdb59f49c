internal import PasteboardProtocol

extension PasteboardConnection {
    /// The answers to a watch (`watch`, `watch-types`, `sessions` with `watch`: requests the
    /// daemon answers at once and then after each change, until cancelled), as `element` makes
    /// them of each message (nil: skip it), until the consuming task stops iterating.
    ///
    /// The stream throws `PasteboardError.connectionLost` when the daemon goes away (it stopped,
    /// or the connection broke) and `PasteboardError.daemon` for an error it answers with.
    func watching<Element: Sendable>(
        _ request: Message, _ element: @escaping @Sendable (Message) async throws -> Element?
    ) -> AsyncThrowingStream<Element, any Error> {
        let connection = self
        return AsyncThrowingStream { continuation in
            let task = Task {
                let (id, frames) = connection.openRequest()
                defer { connection.closeRequest(id) }
                do {
                    try await connection.send(request, on: id)
                    for try await frame in frames where frame.kind == .message {
                        let message = try frame.decodeMessage()
                        switch message {
                        case .error(let error) where error.code == .cancelled || error.code == .shuttingDown:
                            // Not cancelled by this client (it stops listening first): the daemon
                            // ends its watches when it stops. The connection goes with them.
                            throw PasteboardError.connectionLost("pasteboardd stopped")
                        case .error(let error): throw PasteboardError.daemon(error)
                        default:
                            if let next = try await element(message) { continuation.yield(next) }
                        }
                    }
                    continuation.finish(throwing: Task.isCancelled ? nil : PasteboardError.connectionLost("the daemon closed the connection"))
                } catch {
                    if Task.isCancelled { connection.cancelInBackground(id) }
                    continuation.finish(throwing: Task.isCancelled ? nil : error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

import PasteboardProtocol

extension RequestContext {
    /// Runs a watch on request `id` (`watch`, `watch-types`, `sessions` with `watch`): `sendAll`
    /// sends its answers, in a task of the request's own, until it returns (its stream ended:
    /// the client cancelled, and `stop` was called) or a send fails (the client went). Then the
    /// id is freed, before the terminal `cancelled` naming `what`, so the id is free once the
    /// client sees it.
    func watch(id: UInt32, named what: String, stop: @escaping @Sendable () -> Void, _ sendAll: @escaping @Sendable (FrameWriter) async throws -> Void) {
        let (requests, writer) = (self.requests, self.writer)
        _ = requests.reserve(id, window: nil, stop: stop)
        requests.attach(Task(executorPreference: executor) {
            do {
                try await sendAll(writer)
            } catch {
                requests.remove(id)
                return
            }
            requests.remove(id)
            try? await writer.send(.error(ProtocolError(.cancelled, "\(what) cancelled")), on: id)
        }, to: id)
    }
}

import PasteboardProtocol

/// `relinquish`: a source about to leave asks the daemon to capture what it still promises
/// (see `OwnerCapture`), within the capture budget; the answer `ok` comes once every promise
/// is captured or unavailable.
struct RelinquishRequest: Sendable {
    let context: RequestContext

    /// Starts the capture as a task of its own; the connection goes on reading the source's answers.
    func start(id: UInt32) {
        let capture = OwnerCapture(source: context.client, store: context.store, budget: context.configuration.captureBudget, logger: context.logger)
        let (requests, writer) = (context.requests, context.writer)
        _ = requests.reserve(id, window: nil, stop: {})
        requests.attach(Task(executorPreference: context.executor) {
            await capture.run()
            requests.remove(id)
            try? await writer.send(.ok(OK()), on: id)
        }, to: id)
    }
}

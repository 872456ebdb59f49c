import Pasteboard

/// Runs a backend's lanes until the first one ends, then cancels the others and gives them a
/// bounded time to end, so the bridge reports that it lost its display and starts over at
/// once, whatever a lane is waiting on. A lane still running after `grace` is reported (it
/// ends by itself later; its connections are dead or closed by then) instead of holding the
/// bridge: a task group would wait for it without limit.
struct LaneRun: Sendable {
    /// How long cancelled lanes get to end.
    var grace: Duration = .seconds(2)

    /// Runs `lanes` on `connection`; returns when the first ends (rethrowing its error), or
    /// when the calling task is cancelled. `onFirstEnd` hears of the first end before the wait
    /// for the others; `onStraggler` of each lane still running after the grace.
    func run(
        _ lanes: [DesktopBridge.Lane], on connection: PasteboardConnection,
        onFirstEnd: @escaping @Sendable ((any Error)?) -> Void, onStraggler: @escaping @Sendable (Int) -> Void
    ) async throws {
        let (ends, sink) = AsyncStream.makeStream(of: Result<Void, any Error>.self)
        let tasks = lanes.map { lane in
            Task {
                do {
                    try await lane(connection)
                    sink.yield(.success(()))
                } catch {
                    sink.yield(.failure(error))
                }
            }
        }
        let first = await withTaskCancellationHandler {
            var iterator = ends.makeAsyncIterator()
            return await iterator.next()
        } onCancel: {
            for task in tasks { task.cancel() }
        }
        for task in tasks { task.cancel() }
        if case .failure(let error) = first { onFirstEnd(error) } else { onFirstEnd(nil) }
        // The others get `grace` to end; the bridge does not wait longer.
        let deadline = ContinuousClock.now + grace
        for (index, task) in tasks.enumerated() {
            let ended = await withTaskGroup(of: Bool.self) { group in
                group.addTask { _ = await task.result; return true }
                group.addTask { try? await Task.sleep(until: deadline); return false }
                let result = await group.next() ?? false
                group.cancelAll()
                return result
            }
            if !ended { onStraggler(index) }
        }
        sink.finish()
        if case .failure(let error) = first { throw error }
    }
}

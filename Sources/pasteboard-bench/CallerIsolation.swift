import Pasteboard

/// A load started from the main actor against the same load from a plain task: the library
/// receives the bytes off the caller's executor and hands it only the progress reports, so the
/// two should take the same time (the main actor is not where the chunk loop runs).
enum CallerIsolation {
    /// Loads the lazy representation of `size` bytes into memory from a `@MainActor` view
    /// model whose progress closure updates its state; returns the duration and the reports it got.
    static func fromMainActor(_ daemon: BenchDaemon, size: Int) async throws -> (Duration, reports: Int) {
        let reports = Reports()
        let elapsed = try await LargeTransfer.servingLazily(daemon, size: size, handoff: false) { socketPath in
            let model = LoadingViewModel()
            let elapsed = try await model.load(socketPath: socketPath, size: size)
            await reports.set(model.reports)
            return elapsed
        }
        return (elapsed, await reports.count)
    }

    /// The same load from a plain task (the global executor), its progress closure counting too.
    static func fromPlainTask(_ daemon: BenchDaemon, size: Int) async throws -> Duration {
        try await LargeTransfer.servingLazily(daemon, size: size, handoff: false) { socketPath in
            try await Task.detached {
                var reports = 0
                let elapsed = try await timedLoad(socketPath: socketPath, size: size) { _ in reports += 1 }
                guard reports > 0 else { throw BenchError("the plain task heard no progress") }
                return elapsed
            }.value
        }
    }

    /// Loads pasteboard "large" whole with `loadData`; the time from the request to the last byte.
    nonisolated(nonsending) static func timedLoad(socketPath: String, size: Int, progress: (LoadProgress) -> Void) async throws -> Duration {
        try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: "bench-destination") { connection in
            let clock = ContinuousClock()
            let started = clock.now
            let (_, bytes) = try await Pasteboard(name: "large", connection: connection).loadData(accepting: [.data], progress: progress)
            guard bytes.count == size else { throw BenchError("the destination received \(bytes.count) of \(size) bytes") }
            return clock.now - started
        }
    }

    private actor Reports {
        var count = 0
        func set(_ value: Int) { count = value }
    }
}

/// What an app's view model does: load with a progress closure that updates main-actor state.
@MainActor
final class LoadingViewModel {
    var reports = 0
    var fraction = 0.0

    func load(socketPath: String, size: Int) async throws -> Duration {
        try await CallerIsolation.timedLoad(socketPath: socketPath, size: size) { progress in
            self.reports += 1
            self.fraction = progress.fractionCompleted ?? 0
        }
    }
}

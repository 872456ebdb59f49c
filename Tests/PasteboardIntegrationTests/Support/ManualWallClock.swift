import Foundation
import PasteboardDaemon
import Synchronization

/// A wall clock a test moves forward instead of waiting: it starts at the real time, and
/// `advance(bySeconds:)` moves it on, waking the daemon's sleeps (expiries) whose deadline it
/// reached. Give `wallClock` to an `InProcessDaemon`.
final class ManualWallClock: Sendable {
    private struct Sleeper {
        let deadline: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Int
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        var cancelled: Set<Int> = []
    }

    private let state: Mutex<State>

    init() {
        state = Mutex(State(now: WallClock.system.now()))
    }

    /// Milliseconds since the epoch, by this clock.
    var now: Int { state.withLock { $0.now } }

    /// This clock for the daemon.
    var wallClock: WallClock {
        WallClock(now: { self.now }, sleep: { try await self.sleep(until: $0) })
    }

    /// Moves the clock `seconds` on and wakes every sleep whose deadline has come.
    func advance(bySeconds seconds: Double) {
        let due = state.withLock { state -> [Sleeper] in
            state.now += Int((seconds * 1000).rounded())
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return Array(due.values)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    private func sleep(until deadline: Int) async throws {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}

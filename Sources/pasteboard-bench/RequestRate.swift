#if canImport(Glibc)
import Glibc
#endif
import Pasteboard
import PasteboardTypes

/// Concurrent clients of the library, each on its own connection and pasteboard, alternately
/// copying a 16-byte item and pasting it back (and checking it), for a fixed time: as tasks
/// on `PasteboardConnection`s, or as threads on `BlockingConnection`s.
enum RequestRate {
    /// Requests (copies plus pastes) per second over `seconds`.
    static func measure(_ daemon: BenchDaemon, clients: Int, seconds: Int) async throws -> Double {
        let measurement = RateMeasurement()
        let socketPath = daemon.socketPath
        await withTaskGroup(of: Void.self) { group in
            for client in 0..<clients {
                group.addTask {
                    do {
                        try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: "bench-rate") { connection in
                          try await withTaskExecutorPreference(connection.taskExecutor) {
                            let pasteboard = Pasteboard(name: "rate-\(client)", connection: connection)
                            for round in measurement.rounds(of: client) {
                                try await pasteboard.setItems([round.item])
                                try round.check(pasted: try await pasteboard.loadData(accepting: [.plainText]).bytes)
                            }
                          }
                        }
                    } catch {
                        measurement.fail(error)
                    }
                }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                measurement.stop()
            }
        }
        return try measurement.rate()
    }

    /// `measure` with `BlockingConnection` clients, each on a thread of its own.
    static func measureBlocking(_ daemon: BenchDaemon, clients: Int, seconds: Int) throws -> Double {
        let measurement = RateMeasurement()
        let socketPath = daemon.socketPath
        let threads = (0..<clients).map { client in
            BlockingThread {
                do {
                    let connection = try BlockingConnection(socketPath: socketPath, clientName: "bench-rate")
                    let name = "rate-\(client)"
                    for round in measurement.rounds(of: client) {
                        try connection.setItems([round.item], on: name)
                        var bytes: [UInt8] = []
                        try connection.load(pasteboard: name, accepting: [.plainText]) { bytes += $0 }
                        try round.check(pasted: bytes)
                    }
                } catch {
                    measurement.fail(error)
                }
            }
        }
        usleep(UInt32(seconds) * 1_000_000)
        measurement.stop()
        let end = ContinuousClock.now
        for thread in threads { thread.join() }
        return try measurement.rate(endingAt: end)
    }
}

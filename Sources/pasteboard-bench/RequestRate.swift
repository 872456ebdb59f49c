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
        let requests = SharedCount()
        let failure = FirstFailure()
        let stop = StopFlag()
        let clock = ContinuousClock()
        let socketPath = daemon.socketPath
        let started = clock.now
        await withTaskGroup(of: Void.self) { group in
            for client in 0..<clients {
                group.addTask {
                    do {
                        try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: "bench-rate") { connection in
                          try await withTaskExecutorPreference(connection.taskExecutor) {
                            let pasteboard = Pasteboard(name: "rate-\(client)", connection: connection)
                            var sequence = 0
                            while !stop.isSet {
                                let (item, text) = sample(client: client, sequence: sequence)
                                try await pasteboard.setItems([item])
                                let (_, bytes) = try await pasteboard.loadData(accepting: [.plainText])
                                guard bytes == text else { throw BenchError("client \(client) pasted something else") }
                                requests.add(2)
                                sequence += 1
                            }
                          }
                        }
                    } catch {
                        failure.record("\(error)")
                        stop.set()
                    }
                }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                stop.set()
            }
        }
        if let message = failure.recorded { throw BenchError("request rate: \(message)") }
        return Double(requests.current) / Figure.seconds(clock.now - started)
    }

    /// `measure` with `BlockingConnection` clients, each on a thread of its own.
    static func measureBlocking(_ daemon: BenchDaemon, clients: Int, seconds: Int) throws -> Double {
        let requests = SharedCount()
        let failure = FirstFailure()
        let stop = StopFlag()
        let clock = ContinuousClock()
        let socketPath = daemon.socketPath
        let started = clock.now
        let threads = (0..<clients).map { client in
            BlockingThread {
                do {
                    let connection = try BlockingConnection(socketPath: socketPath, clientName: "bench-rate")
                    let name = "rate-\(client)"
                    var sequence = 0
                    while !stop.isSet {
                        let (item, text) = sample(client: client, sequence: sequence)
                        try connection.setItems([item], on: name)
                        var bytes: [UInt8] = []
                        try connection.load(pasteboard: name, accepting: [.plainText]) { bytes += $0 }
                        guard bytes == text else { throw BenchError("client \(client) pasted something else") }
                        requests.add(2)
                        sequence += 1
                    }
                } catch {
                    failure.record("\(error)")
                    stop.set()
                }
            }
        }
        usleep(UInt32(seconds) * 1_000_000)
        stop.set()
        let elapsed = clock.now - started
        for thread in threads { thread.join() }
        if let message = failure.recorded { throw BenchError("request rate: \(message)") }
        return Double(requests.current) / Figure.seconds(elapsed)
    }

    /// The 16-byte item `client` copies in round `sequence`, and its bytes.
    private static func sample(client: Int, sequence: Int) -> (item: ItemProvider, bytes: [UInt8]) {
        let bytes = Array("\(client)-\(sequence)-0123456789abcdef".utf8.prefix(16))
        var item = ItemProvider()
        item.registerData(bytes, for: .utf8PlainText)
        return (item, bytes)
    }
}

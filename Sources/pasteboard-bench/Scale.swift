import Pasteboard
import PasteboardTypes

/// Paste latency against the number of items on the pasteboard, and many connections served at once.
enum Scale {
    /// The median time of `runs` loads of item 0 (16 bytes) from a pasteboard holding `items` items.
    static func pasteLatency(_ daemon: BenchDaemon, items count: Int, runs: Int) async throws -> Duration {
        try await PasteboardConnection.withConnection(socketPath: daemon.socketPath, clientName: "bench-scale") { connection in
            let pasteboard = Pasteboard(name: "scale", connection: connection)
            let items = (0..<count).map { index -> ItemProvider in
                var item = ItemProvider()
                item.registerData(Array(String("item \(index) 0123456789abcdef".prefix(16)).utf8), for: .utf8PlainText)
                return item
            }
            try await pasteboard.setItems(items)
            let clock = ContinuousClock()
            var times: [Duration] = []
            for run in 0..<(runs + 20) {
                let started = clock.now
                let (_, bytes) = try await pasteboard.loadData(accepting: [.plainText])
                if run >= 20 { times.append(clock.now - started) }
                guard bytes.count == 16 else { throw BenchError("a paste from \(count) items returned \(bytes.count) bytes") }
            }
            return Figure.median(times)
        }
    }

    /// Opens `count` connections at once, each pasting the general pasteboard's item while all
    /// are open; returns how many were served and how long it took.
    static func concurrentConnections(_ daemon: BenchDaemon, count: Int) async throws -> (served: Int, elapsed: Duration) {
        try await PasteboardConnection.withConnection(socketPath: daemon.socketPath, clientName: "bench-scale") { connection in
            var item = ItemProvider()
            item.registerData(Array("0123456789abcdef".utf8), for: .utf8PlainText)
            try await Pasteboard(connection: connection).setItems([item])
        }
        let served = SharedCount()
        let connected = SharedCount()
        let clock = ContinuousClock()
        let started = clock.now
        let socketPath = daemon.socketPath
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try? await PasteboardConnection.withConnection(socketPath: socketPath, clientName: "bench-connection") { connection in
                        connected.add(1)
                        // Every connection stays open until all are, so they are truly concurrent.
                        let deadline = clock.now + .seconds(30)
                        while connected.current < count, clock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
                        let (_, bytes) = try await Pasteboard(connection: connection).loadData(accepting: [.plainText])
                        if bytes.count == 16 { served.add(1) }
                    }
                }
            }
        }
        return (served.current, clock.now - started)
    }
}

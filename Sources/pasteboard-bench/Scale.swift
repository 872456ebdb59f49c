import Pasteboard
import PasteboardTypes

/// Paste latency against the number of items on the pasteboard, and many connections served at once.
enum Scale {
    /// The median times of `runs` loads of item 0 (16 bytes of text) from a pasteboard holding
    /// one item and from one holding `count` items, alternating between the two so that both
    /// see the same machine.
    static func pasteLatency(_ daemon: BenchDaemon, items count: Int, runs: Int) async throws -> (one: Duration, many: Duration) {
        try await PasteboardConnection.withConnection(socketPath: daemon.socketPath, clientName: "bench-scale") { connection in
            let one = Pasteboard(name: "scale-one", connection: connection)
            let many = Pasteboard(name: "scale-many", connection: connection)
            try await one.setItems(items(1))
            try await many.setItems(items(count))
            let clock = ContinuousClock()
            var times: (one: [Duration], many: [Duration]) = ([], [])
            for run in 0..<(runs + 20) {
                for (index, pasteboard) in [one, many].enumerated() {
                    let started = clock.now
                    let (_, bytes) = try await pasteboard.loadData(accepting: [.plainText])
                    let elapsed = clock.now - started
                    guard bytes.count == 16 else { throw BenchError("a paste from \(pasteboard.name) returned \(bytes.count) bytes") }
                    guard run >= 20 else { continue }
                    if index == 0 { times.one.append(elapsed) } else { times.many.append(elapsed) }
                }
            }
            return (Figure.median(times.one), Figure.median(times.many))
        }
    }

    /// `count` items of 16 bytes. Item 0 is the text pasted; the others carry a short type
    /// without a MIME type, so that 10,000 of them fit the one-frame description a write must
    /// have (about 85 bytes each; a text item's takes about 140, which caps a write of text
    /// items near 7,400).
    private static func items(_ count: Int) -> [ItemProvider] {
        (0..<count).map { index in
            var item = ItemProvider()
            let bytes = Array(String("item \(index) 0123456789abcdef".prefix(16)).utf8)
            item.registerData(bytes, for: index == 0 ? .utf8PlainText : "com.example.n")
            return item
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

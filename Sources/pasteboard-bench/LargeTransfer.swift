#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import Pasteboard
import PasteboardTypes
import Synchronization

/// Large transfers: a lazy representation from a live source (in this process, on a connection
/// of its own) through the daemon to a destination (another connection), and the plain copies
/// they are compared with.
enum LargeTransfer {
    /// Loads `size` bytes produced by a live source from one reused 1 MiB buffer; returns the
    /// load's duration. With `handoff` off (`PASTEBOARD_HANDOFF=0`), the bytes stream through
    /// the daemon in data frames; with it on, through the pipe the daemon hands over.
    static func throughPasteboard(_ daemon: BenchDaemon, size: Int, handoff: Bool) async throws -> Duration {
        try await servingLazily(daemon, size: size, handoff: handoff) { socketPath in
            try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: "bench-destination") { destination in
                let clock = ContinuousClock()
                let started = clock.now
                var received = 0
                try await Pasteboard(name: "large", connection: destination).load(accepting: [.data]) { chunk in
                    received += chunk.count
                }
                guard received == size else { throw BenchError("the destination received \(received) of \(size) bytes") }
                return clock.now - started
            }
        }
    }

    /// Puts a lazy representation of `size` bytes on the pasteboard "large" (its producer
    /// writes one reused 1 MiB buffer), runs `load` (which loads it, on a connection of its
    /// own, and returns how long that took), and clears the pasteboard.
    static func servingLazily(
        _ daemon: BenchDaemon, size: Int, handoff: Bool, load: @escaping @Sendable (_ socketPath: String) async throws -> Duration
    ) async throws -> Duration {
        setenv("PASTEBOARD_HANDOFF", handoff ? "1" : "0", 1)
        defer { unsetenv("PASTEBOARD_HANDOFF") }
        let socketPath = daemon.socketPath
        return try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: "bench-source") { source in
            let pasteboard = Pasteboard(name: "large", connection: source)
            let handedOff = Atomic<Bool>(false)
            var item = ItemProvider()
            item.registerDataRepresentation(for: .data, size: size) { writer in
                handedOff.store(writer.isHandedOff, ordering: .relaxed)
                let chunk = ByteBuffer(repeating: 0x5a, count: min(size, 1 << 20))
                var remaining = size
                while remaining > 0 {
                    let count = min(remaining, chunk.readableBytes)
                    try await writer.write(chunk.getSlice(at: chunk.readerIndex, length: count)!)
                    remaining -= count
                }
            }
            try await pasteboard.setItems([item])
            let elapsed = try await load(socketPath)
            _ = try await pasteboard.clear()
            guard handedOff.load(ordering: .relaxed) == handoff else {
                throw BenchError(handoff ? "the load was not handed off" : "the load was handed off although hand-off was off")
            }
            return elapsed
        }
    }

    /// The relay baseline: a writer puts `size` bytes into a Unix socket, a relay process copies
    /// them to a second socket (as cat would), and a reader drains that one.
    static func throughRelay(size: Int) throws -> Duration {
        let (source, relayIn) = try BlockingCopy.socketPair()
        let (relayOut, destination) = try BlockingCopy.socketPair()
        let (relayInput, relayOutput) = (high(relayIn), high(relayOut))
        let relay = try Spawned.start(
            [Spawned.ownDirectory + "/pasteboard-bench", "relay-helper"], descriptors: [(relayInput, 3), (relayOutput, 4)])
        close(relayInput)
        close(relayOutput)
        let elapsed = try copy(size: size, from: source, to: destination)
        relay.wait()
        return elapsed
    }

    /// The socketpair baseline: a writer and a reader on the two ends of one socket pair.
    static func throughSocketPair(size: Int) throws -> Duration {
        let (writer, reader) = try BlockingCopy.socketPair()
        return try copy(size: size, from: writer, to: reader)
    }

    /// Fills `input` with `size` bytes on one thread while another drains `output`.
    private static func copy(size: Int, from input: Int32, to output: Int32) throws -> Duration {
        let received = Atomic<Int>(0)
        let clock = ContinuousClock()
        let started = clock.now
        let reader = BlockingThread { received.store(BlockingCopy.drain(output, chunk: 1 << 20), ordering: .relaxed) }
        let writer = BlockingThread { BlockingCopy.fill(input, total: size, chunk: 1 << 20) }
        writer.join()
        reader.join()
        let elapsed = clock.now - started
        guard received.load(ordering: .relaxed) == size else {
            throw BenchError("the baseline's reader received \(received.load(ordering: .relaxed)) of \(size) bytes")
        }
        return elapsed
    }

    /// `fd` moved to a number of 100 or more, so mapping it to 3 and 4 in a child cannot clash.
    private static func high(_ fd: Int32) -> Int32 {
        let moved = fcntl(fd, F_DUPFD_CLOEXEC, 100)
        close(fd)
        return moved
    }
}

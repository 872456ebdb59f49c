import ArgumentParser
import Pasteboard
import PasteboardTypes
import Synchronization

/// `pasteboard-bench soak`: many concurrent clients copy and paste for a sustained run while
/// many idle connections are held; every paste must return exactly what its client copied,
/// and the daemon's memory must stay flat.
struct Soak: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Concurrent copy and paste with idle connections held; reports errors, lost items and daemon memory.",
        discussion: """
            Each client copies an item of pseudo-random size (a few bytes to --max-size) to its own \
            pasteboard, pastes it back and compares, reconnecting every 50 operations. After a \
            warm-up the daemon's resident memory is the baseline; the run reports the largest and \
            the final resident memory as ratios to it. Every idle connection must still answer \
            at the end. Exits 1 on any error, lost item or dropped idle connection.
            """
    )

    @Option(help: "Concurrent clients copying and pasting.")
    var clients = 200

    @Option(help: "Idle connections held open for the whole run.")
    var idle = 1000

    @Option(help: ArgumentHelp("Seconds of measured load, after the warm-up.", valueName: "seconds"))
    var duration = 60

    @Option(help: ArgumentHelp("Seconds of warm-up before the baseline is taken.", valueName: "seconds"))
    var warmUp = 5

    @Option(help: ArgumentHelp("Largest item copied, in bytes.", valueName: "bytes"))
    var maxSize = 64 << 10

    func validate() throws {
        guard clients > 0, idle >= 0, duration > 0, warmUp >= 0, maxSize > 0 else {
            throw ValidationError("--clients, --duration and --max-size must be positive; --idle and --warm-up 0 or more")
        }
        // The daemon runs with its defaults, so idle connections would meet its idle timeout.
        guard warmUp + duration < 590 else {
            throw ValidationError("--warm-up plus --duration must stay under the daemon's 600-second idle timeout")
        }
    }

    func run() async throws {
        BenchDaemon.raiseOpenFileLimit()
        let daemon = try await BenchDaemon.start()
        defer { daemon.stop() }
        let startRSS = daemon.residentBytes
        print("pasteboardd pid \(daemon.pid), socket \(daemon.socketPath), resident \(mebibytes(startRSS))")

        let tally = SoakTally()
        let release = StopFlag()
        let (idle, clients, maxSize, socketPath) = (idle, clients, maxSize, daemon.socketPath)
        let clock = ContinuousClock()
        let result = try await withThrowingTaskGroup(of: Void.self) { group -> SoakResult in
            for _ in 0..<idle {
                group.addTask { await Self.holdIdle(socketPath: socketPath, until: release, tally: tally) }
            }
            while tally.idleOpen < idle, tally.idleFailures == 0 { try await Task.sleep(for: .milliseconds(20)) }
            print("holding \(tally.idleOpen) idle connections; daemon resident \(mebibytes(daemon.residentBytes))")

            let stop = StopFlag()
            for client in 0..<clients {
                group.addTask { await Self.copyAndPaste(client: client, socketPath: socketPath, maxSize: maxSize, until: stop, tally: tally) }
            }
            try await Task.sleep(for: .seconds(warmUp))
            let baselineRSS = daemon.residentBytes
            let baselineOps = tally.operations
            let started = clock.now
            var peakRSS = baselineRSS
            for second in 1...duration {
                try await Task.sleep(until: started + .seconds(second))
                peakRSS = max(peakRSS, daemon.residentBytes)
                if second % 10 == 0 || second == duration {
                    print("  \(second) s: \(tally.operations - baselineOps) copy+paste, \(tally.errors) errors, \(tally.lost) lost, resident \(mebibytes(daemon.residentBytes))")
                }
            }
            let operations = tally.operations - baselineOps
            let elapsed = clock.now - started
            let finalRSS = daemon.residentBytes
            stop.set()
            release.set()
            try await group.waitForAll()
            return SoakResult(
                operations: operations, seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                baselineRSS: baselineRSS, peakRSS: peakRSS, finalRSS: finalRSS
            )
        }
        let ratio = { (value: Int) in decimal(Double(value) / Double(max(result.baselineRSS, 1)), places: 3) }
        print("""
            soak: \(clients) clients, \(idle) idle connections, \(duration) s
              copy+paste round trips: \(result.operations) (\(Int(Double(result.operations) / result.seconds))/s)
              errors: \(tally.errors)   lost items: \(tally.lost)   idle connections dropped: \(tally.idleFailures)
              daemon resident: baseline \(mebibytes(result.baselineRSS)), peak \(mebibytes(result.peakRSS)) (ratio \(ratio(result.peakRSS))), \
            final \(mebibytes(result.finalRSS)) (ratio \(ratio(result.finalRSS)))
            """)
        for message in tally.firstErrors { print("  error: \(message)") }
        if tally.errors > 0 || tally.lost > 0 || tally.idleFailures > 0 { throw ExitCode.failure }
    }

    /// One client: copy, paste back, compare, until told to stop; a new connection every 50 round trips.
    private static func copyAndPaste(client: Int, socketPath: String, maxSize: Int, until stop: StopFlag, tally: SoakTally) async {
        var sequence = UInt64(client) << 32
        while !stop.isSet {
            do {
                try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: "soak-\(client)", autoStart: false) { connection in
                    let pasteboard = Pasteboard(name: "soak-\(client)", connection: connection)
                    for _ in 0..<50 where !stop.isSet {
                        sequence += 1
                        let bytes = payload(sequence: sequence, maxSize: maxSize)
                        var item = ItemProvider()
                        item.registerData(bytes, for: .data)
                        try await pasteboard.setItems([item])
                        let loaded = try await pasteboard.loadData(accepting: [.data])
                        if loaded.bytes == bytes { tally.succeeded() } else { tally.lostItem("client \(client): pasted \(loaded.bytes.count) bytes, not the \(bytes.count) copied") }
                    }
                }
            } catch {
                tally.failed("client \(client): \(error)")
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// Holds one connection without a request until `release`, then checks it still answers.
    private static func holdIdle(socketPath: String, until release: StopFlag, tally: SoakTally) async {
        do {
            try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: "idle", autoStart: false) { connection in
                tally.idleOpened()
                while !release.isSet { try await Task.sleep(for: .milliseconds(250)) }
                _ = try await Pasteboard(connection: connection).changeCount()
            }
        } catch {
            tally.idleFailed("idle connection: \(error)")
        }
    }

    /// Deterministic bytes for a sequence number: its size varies from 1 byte to `maxSize`.
    private static func payload(sequence: UInt64, maxSize: Int) -> [UInt8] {
        var state = sequence &* 0x9E37_79B9_7F4A_7C15 | 1
        let size = 1 + Int(state % UInt64(maxSize))
        return (0..<size).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    private func mebibytes(_ bytes: Int) -> String {
        decimal(Double(bytes) / 1_048_576, places: 1) + " MiB"
    }
}

/// What a soak measured.
private struct SoakResult: Sendable {
    var operations: Int
    var seconds: Double
    var baselineRSS: Int
    var peakRSS: Int
    var finalRSS: Int
}

/// Counters shared by every client of a soak.
final class SoakTally: Sendable {
    private struct Counts {
        var operations = 0
        var errors = 0
        var lost = 0
        var idleOpen = 0
        var idleFailures = 0
        var firstErrors: [String] = []
    }

    private let counts = Mutex(Counts())

    var operations: Int { counts.withLock { $0.operations } }
    var errors: Int { counts.withLock { $0.errors } }
    var lost: Int { counts.withLock { $0.lost } }
    var idleOpen: Int { counts.withLock { $0.idleOpen } }
    var idleFailures: Int { counts.withLock { $0.idleFailures } }
    /// The first few error messages, for the report.
    var firstErrors: [String] { counts.withLock { $0.firstErrors } }

    func succeeded() { counts.withLock { $0.operations += 1 } }
    func failed(_ message: String) { counts.withLock { $0.errors += 1; Self.keep(message, in: &$0) } }
    func lostItem(_ message: String) { counts.withLock { $0.lost += 1; Self.keep(message, in: &$0) } }
    func idleOpened() { counts.withLock { $0.idleOpen += 1 } }
    func idleFailed(_ message: String) { counts.withLock { $0.idleFailures += 1; Self.keep(message, in: &$0) } }

    private static func keep(_ message: String, in counts: inout Counts) {
        if counts.firstErrors.count < 5 { counts.firstErrors.append(message) }
    }
}

import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// `pasteboard-bench run` (the default): every scenario of the performance goals, each against
/// its baseline measured in the same run, printed as one table.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure each scenario against its baseline and print the table (the default).",
        discussion: """
            Scenarios: small paste and small copy (whole-process time of pb against xsel on \
            Xvfb, one of each in turn), request rate (50 library clients, as tasks on PasteboardConnection and as threads \
            on BlockingConnection, against redis-benchmark SET/GET on a Unix socket, without and \
            with per-write fsync), large transfer (a 1 GiB lazy \
            representation through the daemon against a relay process, and through a handed-off \
            pipe against a socketpair copy; a loadData started from a @MainActor caller against the same from a plain task), memory (the daemon's peak resident size while \
            relaying 4 GiB), copy (pb copy of a 1 GiB file of random bytes and the same \
            from a pipe, to a durable daemon, against cp and cat followed by sync to the same \
            filesystem; pb paste of the stored copy into a pipe and into a file against cat; pb's peak resident size; the \
            daemon's resident size above idle while it takes 4 GiB from a pipe and after), scale (paste latency with 10,000 items against 1; 1,000 \
            connections at once), and the desktop bridge, with a daemon given the bench's own \
            display so it starts its bridge: bridge-x11 (pb paste of 16 bytes xclip -i owns \
            against xclip -o; xclip -o of 256 MiB from a pb copy --lazy source through the \
            bridge against xclip -o from xclip -i, with the daemon's and the bridge's peak \
            resident sizes) and bridge-wayland (the same export with wl-paste against wl-copy, \
            on a headless sway), drag-x11 (the time from releasing a `pb drag --desktop` of a 20 MiB \
            PNG over a GTK 3 application, xdotool driving the pointer, to the application holding \
            every byte, against the same application reading the same bytes from xclip -i's \
            CLIPBOARD), drag-wayland (the same drop on a headless sway, a virtual pointer of the bench's own \
            driving it, against the same application receiving the same bytes dragged from a GTK 3 source), and link (two daemons linked by pb link through sshd on loopback: a \
            16-byte paste on B of A's copy against ssh HOST cat FILE, and 256 MiB pulled across the \
            link against ssh HOST cat FILE > /dev/null). Baselines come from Debian's xsel, xclip, xdotool, python3-gi, xvfb, sway, \
            wl-clipboard, redis-server, redis-tools and openssh-server packages, and pb's peak memory from GNU time (the time \
            package); a missing one is named in the table and our \
            figure is still printed where it can be measured. Nothing is installed by the bench.
            """
    )

    @Option(help: "Scenarios to run, comma-separated: \(Self.scenarioNames.joined(separator: ", ")).")
    var only: String = Self.scenarioNames.joined(separator: ",")

    @Option(help: "Timed runs per small command; the median is reported.")
    var runs = 200

    @Option(help: ArgumentHelp("Size of the large transfer, in MiB.", valueName: "MiB"))
    var largeSize = 1024

    @Option(help: ArgumentHelp("Size relayed while the daemon's memory is measured, in MiB.", valueName: "MiB"))
    var memorySize = 4096

    @Option(help: ArgumentHelp("Size of the file the copy scenario copies and pastes, in MiB.", valueName: "MiB"))
    var copySize = 1024

    @Option(help: ArgumentHelp("Size the copy scenario copies from a pipe while the daemon's memory is measured, in MiB.", valueName: "MiB"))
    var heldSize = 4096

    @Option(help: ArgumentHelp("Size pasted through the desktop bridge, in MiB.", valueName: "MiB"))
    var bridgeSize = 256

    @Option(help: ArgumentHelp("Size of the PNG dragged into a GTK application in the drag-x11 and drag-wayland scenarios, in MiB.", valueName: "MiB"))
    var dragSize = 20

    @Option(help: ArgumentHelp("Size pulled across the link in the link scenario, in MiB.", valueName: "MiB"))
    var linkSize = 256

    @Option(help: ArgumentHelp("Seconds each request-rate measurement lasts.", valueName: "seconds"))
    var rateSeconds = 5

    @Option(help: "Rounds of each request rate, large transfer and large copy and of its baseline, alternating; the best of each is reported.")
    var rounds = 3

    @Option(help: "Concurrent clients of the request-rate scenario (and redis-benchmark's).")
    var clients = 50

    @Option(help: "Items on the pasteboard in the scale scenario.")
    var items = 10_000

    @Option(help: "Connections opened at once in the scale scenario.")
    var connections = 1000

    func validate() throws {
        for name in scenarios where !Self.scenarioNames.contains(name) {
            throw ValidationError("unknown scenario '\(name)'; choose from \(Self.scenarioNames.joined(separator: ", "))")
        }
        for (option, size) in [("--copy-size", copySize), ("--held-size", heldSize)] where !(1...LargeCopy.largestMebibytes).contains(size) {
            throw ValidationError("\(option) must be 1 to \(LargeCopy.largestMebibytes) MiB (the copy scenario's daemon takes representations up to 64 GiB), not \(size)")
        }
        guard (1...LargeCopy.largestMebibytes).contains(linkSize) else { throw ValidationError("--link-size must be 1 to \(LargeCopy.largestMebibytes) MiB, not \(linkSize)") }
        guard bridgeSize > 0, bridgeSize <= 4095 else { throw ValidationError("--bridge-size must be 1 to 4095 MiB (an X11 INCR transfer's size is 32 bits)") }
        guard dragSize > 0, dragSize <= 1024 else { throw ValidationError("--drag-size must be 1 to 1024 MiB (GTK holds a drop whole in memory), not \(dragSize)") }
        guard runs > 0, rounds > 0, largeSize > 0, memorySize > 0, rateSeconds > 0, clients > 0, items > 0, connections > 0 else {
            throw ValidationError("every count and size must be positive")
        }
        // Bounds before the conversions: seconds become a 32-bit microsecond sleep, MiB a byte count.
        guard rateSeconds <= 3600 else { throw ValidationError("--rate-seconds must be 1 to 3600, not \(rateSeconds)") }
        for (option, size) in [("--large-size", largeSize), ("--memory-size", memorySize)] where size > LargeCopy.largestMebibytes {
            throw ValidationError("\(option) must be 1 to \(LargeCopy.largestMebibytes) MiB, not \(size)")
        }
    }

    /// Every scenario, in the order a run measures them.
    static let scenarioNames = ["small", "rate", "large", "memory", "copy", "scale", "bridge-x11", "bridge-wayland", "drag-x11", "drag-wayland", "link"]

    private var scenarios: [String] { only.split(separator: ",").map { String($0).trimmingSpaces } }

    func run() async throws {
        BenchDaemon.raiseOpenFileLimit()
        var rows: [BenchRow] = []
        let wanted = Set(scenarios)
        if wanted.contains("small") { rows += try await small() }
        if wanted.contains("rate") { rows += try await rate() }
        if wanted.contains("large") { rows += try await large() }
        if wanted.contains("memory") { rows.append(try await memory()) }
        if wanted.contains("copy") {
            rows += try await LargeCopy(copySize: copySize << 20, heldSize: heldSize << 20, rounds: rounds) { progress($0) }.rows()
        }
        if wanted.contains("scale") { rows += try await scale() }
        let bridge = DesktopBridgeSpeed(runs: runs, rounds: rounds, size: bridgeSize << 20) { progress($0) }
        if wanted.contains("bridge-x11") { rows += try await bridge.x11Rows() }
        if wanted.contains("bridge-wayland") { rows += try await bridge.waylandRows() }
        if wanted.contains("drag-x11") {
            rows += try await DesktopDragSpeed(rounds: rounds, size: dragSize << 20) { progress($0) }.rows()
        }
        if wanted.contains("drag-wayland") {
            rows += try await WaylandDragSpeed(rounds: rounds, size: dragSize << 20) { progress($0) }.rows()
        }
        if wanted.contains("link") {
            rows += try await LinkSpeed(runs: min(runs, 50), rounds: rounds, size: linkSize << 20) { progress($0) }.rows()
        }
        print(BenchRow.table(rows))
    }

    private func small() async throws -> [BenchRow] {
        let memoryOnly = try await BenchDaemon.start(["--memory-only"])
        defer { memoryOnly.stop() }
        let daemon = try await BenchDaemon.start()
        defer { daemon.stop() }
        progress("small paste and copy, durable and memory-only, and xsel, in turn, \(runs) runs each")
        return try SmallCommands(daemon: daemon, memoryOnly: memoryOnly, runs: runs).rows()
    }

    private func rate() async throws -> [BenchRow] {
        var rows: [BenchRow] = []
        for durable in [false, true] {
            let daemon = try await BenchDaemon.start(durable ? [] : ["--memory-only"])
            defer { daemon.stop() }
            // The machine's speed drifts over a run (a shared VM's neighbours): rounds alternate
            // ours and redis, and the best of each is compared.
            var async = 0.0, blocking = 0.0
            var baseline = Result<Double, BenchError>.failure(BenchError("not measured"))
            for round in 1...rounds {
                progress("request rate, \(clients) clients, \(durable ? "durable" : "memory-only") daemon, round \(round) of \(rounds): PasteboardConnection, BlockingConnection, redis")
                async = max(async, try await RequestRate.measure(daemon, clients: clients, seconds: rateSeconds))
                blocking = max(blocking, try RequestRate.measureBlocking(daemon, clients: clients, seconds: rateSeconds))
                let persistence = durable
                    ? ["--appendonly", "yes", "--appendfsync", "always", "--save", ""]
                    : ["--appendonly", "no", "--save", ""]
                let redis = RedisBaseline.rate(clients: clients, requests: 200_000, directory: daemon.directory, persistence: persistence)
                switch (baseline, redis) {
                case (.success(let best), .success(let rate)): baseline = .success(max(best, rate))
                case (.failure, _): baseline = redis
                case (.success, .failure): break
                }
            }
            let theirs = try? baseline.get()
            let daemonKind = durable ? "each copy synced to disk" : "memory-only daemon"
            for (ours, clientKind) in [(async, "PasteboardConnection"), (blocking, "BlockingConnection, a thread each")] {
                let ratio = theirs.map { ours / $0 }
                rows.append(BenchRow(
                    scenario: "Request rate: \(clients) clients (\(clientKind)) copy+paste 16 bytes, \(daemonKind) (best of \(rounds))",
                    ours: Figure.rate(ours),
                    baseline: theirs.map { "\(Figure.rate($0)) (redis SET/GET, \(durable ? "appendfsync always" : "no persistence"))" }
                        ?? "— (\(Self.reason(baseline)))",
                    ratio: ratio, goal: "≥ 0.5×", met: ratio.map { $0 >= 0.5 }))
            }
        }
        return rows
    }

    private func large() async throws -> [BenchRow] {
        let size = largeSize << 20
        let daemon = try await BenchDaemon.start()
        defer { daemon.stop() }
        var streamed = Duration.seconds(1 << 40), relay = streamed, handedOff = streamed, socketPair = streamed
        var fromMain = streamed, fromTask = streamed, mainReports = 0
        // Loaded whole into memory: at most 256 MiB.
        let callerSize = min(largeSize, 256) << 20
        for round in 1...rounds {
            progress("large transfer, \(largeSize) MiB, round \(round) of \(rounds): through the daemon, a relay process, handed off, a socketpair")
            streamed = min(streamed, try await LargeTransfer.throughPasteboard(daemon, size: size, handoff: false))
            relay = min(relay, try LargeTransfer.throughRelay(size: size))
            handedOff = min(handedOff, try await LargeTransfer.throughPasteboard(daemon, size: size, handoff: true))
            socketPair = min(socketPair, try LargeTransfer.throughSocketPair(size: size))
            progress("caller isolation, \(callerSize >> 20) MiB loadData, round \(round) of \(rounds): from the main actor, from a plain task")
            let (elapsed, reports) = try await CallerIsolation.fromMainActor(daemon, size: callerSize)
            fromMain = min(fromMain, elapsed)
            mainReports = max(mainReports, reports)
            fromTask = min(fromTask, try await CallerIsolation.fromPlainTask(daemon, size: callerSize))
        }
        let callerRatio = Figure.seconds(fromMain) / Figure.seconds(fromTask)
        let streamedRatio = Figure.seconds(relay) / Figure.seconds(streamed)
        let handoffRatio = Figure.seconds(socketPair) / Figure.seconds(handedOff)
        return [
            BenchRow(
                scenario: "Large transfer: \(largeSize) MiB lazy representation, live source → daemon → destination (best of \(rounds))",
                ours: Figure.mebibytesPerSecond(size, in: streamed),
                baseline: "\(Figure.mebibytesPerSecond(size, in: relay)) (socket → relay process → socket)",
                ratio: streamedRatio, goal: "≥ 0.6×", met: streamedRatio >= 0.6),
            BenchRow(
                scenario: "Hand-off: \(largeSize) MiB through the socket the daemon passes to each side (SCM_RIGHTS, best of \(rounds))",
                ours: Figure.mebibytesPerSecond(size, in: handedOff),
                baseline: "\(Figure.mebibytesPerSecond(size, in: socketPair)) (socketpair copy)",
                ratio: handoffRatio, goal: "≥ 0.8×", met: handoffRatio >= 0.8),
            BenchRow(
                scenario: "Caller isolation: \(callerSize >> 20) MiB `loadData` started from a `@MainActor` view model updating its state from progress (\(mainReports) reports; best of \(rounds))",
                ours: Figure.milliseconds(fromMain),
                baseline: "\(Figure.milliseconds(fromTask)) (the same load from a plain task)",
                ratio: callerRatio, goal: "≤ 1.1×", met: callerRatio <= 1.1),
        ]
    }

    private func memory() async throws -> BenchRow {
        let daemon = try await BenchDaemon.start()
        defer { daemon.stop() }
        progress("memory: relaying \(memorySize) MiB through the daemon")
        let before = daemon.residentBytes
        daemon.resetPeak()
        _ = try await LargeTransfer.throughPasteboard(daemon, size: memorySize << 20, handoff: false)
        let peak = daemon.peakResidentBytes
        return BenchRow(
            scenario: "Memory: daemon's peak resident size relaying \(memorySize) MiB (\(Figure.mebibytes(before)) before)",
            ours: Figure.mebibytes(peak), baseline: "— (an absolute goal)", ratio: nil,
            goal: "≤ 64 MiB", met: peak > 0 ? peak <= 64 << 20 : nil)
    }

    private func scale() async throws -> [BenchRow] {
        let daemon = try await BenchDaemon.start()
        defer { daemon.stop() }
        progress("scale: paste latency with 1 and \(items) items; \(connections) connections at once")
        let (one, many) = try await Scale.pasteLatency(daemon, items: items, runs: 500)
        let (served, elapsed) = try await Scale.concurrentConnections(daemon, count: connections)
        let ratio = Figure.seconds(many) / Figure.seconds(one)
        return [
            BenchRow(
                scenario: "Scale: paste latency with \(items) items on the pasteboard (median of 500)",
                ours: Figure.milliseconds(many), baseline: "\(Figure.milliseconds(one)) (1 item)",
                ratio: ratio, goal: "≤ 1.2×", met: ratio <= 1.2),
            BenchRow(
                scenario: "Scale: \(connections) connections open at once, each pasting",
                ours: "\(served) served in \(Figure.milliseconds(elapsed))", baseline: "— (all must be served)",
                ratio: nil, goal: "\(connections) served", met: served == connections),
        ]
    }

    private func progress(_ message: String) {
        var standardError = StandardError()
        print("pasteboard-bench: \(message)", to: &standardError)
    }

    private static func reason<T>(_ result: Result<T, BenchError>) -> String {
        if case .failure(let error) = result { return error.description }
        return ""
    }
}

/// Writes to stderr, for progress lines that stay out of the table on stdout.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        _ = Glibc.write(2, &bytes, bytes.count)
    }
}

extension String {
    /// Without leading and trailing spaces.
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// Large eager copies (issue 27), each against a plain copy to the same filesystem measured in
/// the same run: `pb copy F` of a file of random bytes against `cp F x && sync x`, `cat F | pb
/// copy` against `cat F > x && sync x`, `pb paste | cat` of what the daemon stored against
/// `cat x | cat` and `pb paste > y` against `cat x > y`, pb's own peak resident size in those
/// copies (see `OwnPeakMemory`), and
/// the daemon's resident size above idle while it takes, and then holds, a copy of `heldSize`
/// bytes from a pipe.
///
/// The daemon is durable (the bench's default: each copy is synced before `ok`, which is why the
/// baselines sync too), its files and ours side by side in its temporary directory, so both
/// sides write to one filesystem. It may take representations of up to 64 GiB: the point is to
/// measure copies of files the size of disk images, not the daemon's default limit.
///
/// Rounds alternate ours and the baseline, and the best of each is compared, as the `large`
/// scenario does: a shared virtual machine's disk and CPU drift over seconds.
struct LargeCopy {
    /// Bytes of the copied file (`--copy-size`).
    let copySize: Int
    /// Bytes copied from a pipe while the daemon's memory is watched (`--held-size`).
    let heldSize: Int
    let rounds: Int
    let progress: (String) -> Void

    /// The largest `--copy-size` and `--held-size`, in MiB: the daemon's limit below.
    static let largestMebibytes = 65536

    /// The bench daemon's arguments: a limit above any size the options allow.
    static let daemonArguments = ["--max-representation-size", "64G"]

    /// The goal of the ratio rows and of the memory rows.
    private static let copyGoal = 1.5, pasteGoal = 0.8
    private static let pbMemoryGoal = 32 << 20, daemonMemoryGoal = 64 << 20

    private var pb: String { Spawned.ownDirectory + "/pb" }
    private var copyMebibytes: Int { copySize >> 20 }
    private var heldMebibytes: Int { heldSize >> 20 }

    /// The free space the scenario needs before it writes anything: the file and the
    /// baseline's copy of it, and twice the held size (the daemon's stored copy and room for
    /// a daemon that, as today's, also writes a copy of it to its archive). With the default
    /// sizes, 10 GiB.
    private var neededBytes: Int { 2 * heldSize + 2 * copySize }

    /// The rows: the copies and the paste on one daemon, then the held copy on a fresh one, so
    /// its idle size is a daemon's that holds nothing large.
    func rows() async throws -> [BenchRow] {
        let tools = try Tools()
        var rows: [BenchRow]
        do {
            let daemon = try await BenchDaemon.start(Self.daemonArguments)
            defer { daemon.stop() }
            if let shortage = shortage(in: daemon.directory) { return skipped(shortage) }
            rows = try transferRows(daemon, tools: tools)
        }
        let daemon = try await BenchDaemon.start(Self.daemonArguments)
        defer { daemon.stop() }
        rows += try heldRows(daemon, tools: tools)
        return rows
    }

    // MARK: Copies and paste

    /// Rows 1 to 5: the file copy, the pipe copy, the pastes into a pipe and a file, and pb's peak resident size.
    private func transferRows(_ daemon: BenchDaemon, tools: Tools) throws -> [BenchRow] {
        let source = daemon.directory + "/copy-source", copied = daemon.directory + "/copy-baseline"
        let log = daemon.directory + "/copy-commands.log"
        defer {
            unlink(source)
            unlink(copied)
            unlink(log)
        }
        let environment = ChildEnvironment(setting: ["PASTEBOARD_SOCKET": daemon.socketPath], removing: ["DISPLAY", "WAYLAND_DISPLAY"])
        func run(_ stages: [[String]], output: String = "/dev/null", size: Int) throws -> ProcessPipeline.Outcome {
            try ProcessPipeline(stages: stages, output: output, log: log, environment: environment, limit: Self.limit(heldSize)).run()
        }
        // `cp F x && sync x`, or `cat F > x && sync x`: the copy to a new x, then its sync.
        func baseline(_ stages: [[String]], output: String = "/dev/null") throws -> Duration {
            unlink(copied)
            let copy = try run(stages, output: output, size: copySize).elapsed
            return copy + (try run([[tools.sync, copied]], size: copySize).elapsed)
        }

        progress("large copy: writing \(copyMebibytes) MiB of random bytes to \(source)")
        unlink(source)
        _ = try run([[tools.head, "-c", "\(copyMebibytes)M", "/dev/urandom"]], output: source, size: copySize)

        let unmeasured = Duration.seconds(1 << 40)
        var fileCopy = unmeasured, fileBaseline = unmeasured, pipeCopy = unmeasured, pipeBaseline = unmeasured
        for round in 1...rounds {
            progress("large copy, \(copyMebibytes) MiB, round \(round) of \(rounds): pb copy F, cp F x && sync x, cat F | pb copy, cat F > x && sync x")
            let file = try run([[pb, "copy", source]], size: copySize)
            fileCopy = min(fileCopy, file.elapsed)
            fileBaseline = min(fileBaseline, try baseline([[tools.cp, source, copied]]))
            let pipe = try run([[tools.cat, source], [pb, "copy"]], size: copySize)
            pipeCopy = min(pipeCopy, pipe.elapsed)
            pipeBaseline = min(pipeBaseline, try baseline([[tools.cat, source]], output: copied))
        }

        // pb's own peak, once each way, untimed (GNU time's fork and wait would count against us).
        progress("large copy: pb's peak resident size, once from the file and once from a pipe, under \(OwnPeakMemory.tool)")
        let peakFile = daemon.directory + "/copy-peak"
        defer { unlink(peakFile) }
        // Why pb's peak is not measured, when it is not: the row says so, the rest stands.
        var peakProblem = "needs GNU time (\(OwnPeakMemory.tool); apt-get install time)"
        func peak(_ stages: [[String]]) -> Int? {
            guard OwnPeakMemory.isAvailable else { return nil }
            unlink(peakFile)
            do {
                _ = try run(stages, size: copySize)
            } catch {
                // The same pb command just ran in the timed rounds: what failed is the tool.
                peakProblem = "\(OwnPeakMemory.tool) failed (is it GNU time?): \(error)"
                return nil
            }
            guard let bytes = OwnPeakMemory.read(peakFile) else {
                peakProblem = "\(OwnPeakMemory.tool) wrote no peak (is it GNU time?)"
                return nil
            }
            return bytes
        }
        let filePeak = peak([OwnPeakMemory.measuring([pb, "copy", source], into: peakFile)])
        let pipePeak = peak([[tools.cat, source], OwnPeakMemory.measuring([pb, "copy"], into: peakFile)])

        // The pasteboard holds the last `cat F | pb copy`: its paste must be F, byte for byte
        // (checked once, untimed, which is also each side's warming run).
        progress("large paste, \(copyMebibytes) MiB: pb paste | cmp against the file, cat x once, then \(rounds) rounds of each")
        _ = try run([[pb, "paste"], [tools.cmp, source, "-"]], size: copySize)
        _ = try run([[tools.cat, copied]], size: copySize)
        // Where a user's paste goes: into a pipe another process reads (`| cat`), and into a
        // new file. Not /dev/null, where a kernel copy has nothing to do and its figure means
        // nothing to a user.
        let pasted = daemon.directory + "/pasted"
        defer { unlink(pasted) }
        func intoFile(_ command: [String]) throws -> Duration {
            unlink(pasted)
            return try run([command], output: pasted, size: copySize).elapsed
        }
        var pipePaste = unmeasured, pipePasteBaseline = unmeasured, filePaste = unmeasured, filePasteBaseline = unmeasured
        for _ in 1...rounds {
            pipePaste = min(pipePaste, try run([[pb, "paste"], [tools.cat]], size: copySize).elapsed)
            pipePasteBaseline = min(pipePasteBaseline, try run([[tools.cat, copied], [tools.cat]], size: copySize).elapsed)
            filePaste = min(filePaste, try intoFile([pb, "paste"]))
            filePasteBaseline = min(filePasteBaseline, try intoFile([tools.cat, copied]))
        }

        let scenarios = self.scenarios
        let fileRatio = Figure.seconds(fileCopy) / Figure.seconds(fileBaseline)
        let pipeRatio = Figure.seconds(pipeCopy) / Figure.seconds(pipeBaseline)
        let pipePasteRatio = Figure.seconds(pipePasteBaseline) / Figure.seconds(pipePaste)
        let filePasteRatio = Figure.seconds(filePasteBaseline) / Figure.seconds(filePaste)
        let pbPeak = filePeak.flatMap { file in pipePeak.map { max(file, $0) } }
        return [
            BenchRow(
                scenario: scenarios[0].name, ours: Figure.milliseconds(fileCopy),
                baseline: "\(Figure.milliseconds(fileBaseline)) (`cp F x && sync x`)",
                ratio: fileRatio, goal: scenarios[0].goal, met: fileRatio <= Self.copyGoal),
            BenchRow(
                scenario: scenarios[1].name, ours: Figure.milliseconds(pipeCopy),
                baseline: "\(Figure.milliseconds(pipeBaseline)) (`cat F > x && sync x`)",
                ratio: pipeRatio, goal: scenarios[1].goal, met: pipeRatio <= Self.copyGoal),
            BenchRow(
                scenario: scenarios[2].name, ours: Figure.mebibytesPerSecond(copySize, in: pipePaste),
                baseline: "\(Figure.mebibytesPerSecond(copySize, in: pipePasteBaseline)) (`cat x | cat`)",
                ratio: pipePasteRatio, goal: scenarios[2].goal, met: pipePasteRatio >= Self.pasteGoal),
            BenchRow(
                scenario: scenarios[3].name, ours: Figure.mebibytesPerSecond(copySize, in: filePaste),
                baseline: "\(Figure.mebibytesPerSecond(copySize, in: filePasteBaseline)) (`cat x > y`)",
                ratio: filePasteRatio, goal: scenarios[3].goal, met: filePasteRatio >= Self.pasteGoal),
            BenchRow(
                scenario: scenarios[4].name,
                ours: pbPeak.map { "\(Figure.mebibytes($0)) (file \(Figure.mebibytes(filePeak ?? 0)), pipe \(Figure.mebibytes(pipePeak ?? 0)))" }
                    ?? "not measured: \(peakProblem)",
                baseline: "— (an absolute goal)", ratio: nil, goal: scenarios[4].goal,
                met: pbPeak.map { $0 <= Self.pbMemoryGoal }),
        ]
    }

    // MARK: The held copy

    /// Rows 6 and 7: the daemon's peak and its resident size after the copy, above idle.
    private func heldRows(_ daemon: BenchDaemon, tools: Tools) throws -> [BenchRow] {
        let log = daemon.directory + "/held-commands.log"
        defer { unlink(log) }
        let environment = ChildEnvironment(setting: ["PASTEBOARD_SOCKET": daemon.socketPath], removing: ["DISPLAY", "WAYLAND_DISPLAY"])
        // `count` as head -c takes it; every copy gets the held size's time limit.
        func copy(_ count: String) throws {
            _ = try ProcessPipeline(
                stages: [[tools.head, "-c", count, "/dev/zero"], [pb, "copy"]],
                log: log, environment: environment, limit: Self.limit(heldSize)).run()
        }
        progress("large copy: the daemon's memory while it takes \(heldMebibytes) MiB from a pipe (head -c \(heldMebibytes)M /dev/zero | pb copy)")
        // Idle after one small copy: a daemon that has served a client, not one that just started.
        try copy("16")
        let memory = daemon.memory
        let idle = memory.residentBytes
        let reset = memory.resetPeak()
        try copy("\(heldMebibytes)M")
        let (peak, after) = (memory.peakResidentBytes, memory.residentBytes)
        let scenarios = self.scenarios
        let since = reset ? "" : "; peak since the daemon started: clear_refs refused"
        return [
            memoryRow(scenarios[5].name + " (idle \(Figure.mebibytes(idle))\(since))", goal: scenarios[5].goal, size: peak, idle: idle),
            memoryRow(scenarios[6].name, goal: scenarios[6].goal, size: after, idle: idle),
        ]
    }

    private func memoryRow(_ scenario: String, goal: String, size: Int, idle: Int) -> BenchRow {
        let above = size - idle
        return BenchRow(
            scenario: scenario, ours: "\(Figure.mebibytes(above)) (\(Figure.mebibytes(size)) resident)",
            baseline: "— (an absolute goal)", ratio: nil, goal: goal,
            met: size > 0 && idle > 0 ? above <= Self.daemonMemoryGoal : nil)
    }

    // MARK: Rows, skipped or not

    /// Each row's scenario and goal, so a skipped run prints the same rows.
    private var scenarios: [(name: String, goal: String)] {
        [
            ("Large copy: `pb copy F` of \(copyMebibytes) MiB of random bytes, synced to disk (best of \(rounds))",
             "≤ \(decimal(Self.copyGoal, places: 1))×"),
            ("Large copy from a pipe: `cat F | pb copy` of those \(copyMebibytes) MiB, synced to disk (best of \(rounds))",
             "≤ \(decimal(Self.copyGoal, places: 1))×"),
            ("Large paste into a pipe: `pb paste | cat` of the stored \(copyMebibytes) MiB, warm cache (throughput: ratio ours over cat's, higher is better; best of \(rounds))",
             "≥ \(decimal(Self.pasteGoal, places: 1))×"),
            ("Large paste into a file: `pb paste > y` of the stored \(copyMebibytes) MiB, warm cache (throughput, as above; best of \(rounds))",
             "≥ \(decimal(Self.pasteGoal, places: 1))×"),
            ("Memory: pb's own peak resident size during `pb copy F` and `cat F | pb copy` of \(copyMebibytes) MiB (GNU time, one run each)",
             "≤ \(Self.pbMemoryGoal >> 20) MiB"),
            ("Memory: daemon's peak resident size above idle while it takes \(heldMebibytes) MiB from a pipe (`head -c \(heldMebibytes)M /dev/zero | pb copy`)",
             "≤ \(Self.daemonMemoryGoal >> 20) MiB"),
            ("Memory: daemon's resident size above idle holding those \(heldMebibytes) MiB, as `pb copy` exits",
             "≤ \(Self.daemonMemoryGoal >> 20) MiB"),
        ]
    }

    /// Why the scenario cannot run in `directory`, when its filesystem has too little room.
    private func shortage(in directory: String) -> String? {
        guard let available = FreeSpace.availableBytes(at: directory) else {
            return "skipped: the free space of \(directory) cannot be read"
        }
        guard available < neededBytes else { return nil }
        return "skipped: \(Figure.gibibytes(available)) free where \(directory) is, under the "
            + "\(Figure.gibibytes(neededBytes)) needed (2 × held size + 2 × copy size)"
    }

    private func skipped(_ reason: String) -> [BenchRow] {
        scenarios.map { BenchRow(scenario: $0.name, ours: "— (\(reason))", baseline: "—", ratio: nil, goal: $0.goal, met: nil) }
    }

    /// How long one command over `size` bytes may run before it counts as stalled: a minute,
    /// plus the size at 20 MiB/s (a slow disk's sync), so a hung daemon fails the run in
    /// minutes rather than hanging it.
    private static func limit(_ size: Int) -> Duration {
        .seconds(60 + size / (20 << 20))
    }

    /// The baselines' programs, found on PATH before anything is written.
    private struct Tools {
        let cp: String, cat: String, sync: String, head: String, cmp: String

        init() throws {
            func find(_ name: String) throws -> String {
                guard let path = Spawned.find(name) else { throw BenchError("\(name) not found on PATH (the large copy scenario needs it)") }
                return path
            }
            (cp, cat, sync, head, cmp) = (try find("cp"), try find("cat"), try find("sync"), try find("head"), try find("cmp"))
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// Whole-process times of the commands a shell loop runs: `pb paste` and `pb copy` of a
/// 16-byte item with the daemon warm, against `xsel -b -o` and `xsel -b -i` on Xvfb.
///
/// The commands run in turn, ours then its baseline, round after round (the pastes, then the
/// copies), so both see the machine in the same state: on a shared virtual machine, whose speed
/// drifts over seconds, timing 200 of one and then 200 of the other moved the ratios by a third
/// between runs.
struct SmallCommands {
    /// The daemon as users run it, storing to disk.
    let daemon: BenchDaemon
    /// A memory-only daemon, for the copy without the sync.
    let memoryOnly: BenchDaemon
    /// Timed runs per command (after a few untimed ones), of which the median is reported.
    let runs: Int

    private var pb: String { Spawned.ownDirectory + "/pb" }

    /// The sixteen bytes copied, in a file.
    private func input() -> String {
        let input = daemon.directory + "/sixteen-bytes"
        let file = fopen(input, "w")
        fputs("0123456789abcdef", file)
        fclose(file)
        return input
    }

    /// The rows of the small scenarios: paste and copy against xsel, and the copy to the
    /// memory-only daemon against the same baseline, so the cost of the sync is visible.
    func rows() throws -> [BenchRow] {
        let input = input()
        let durable = ChildEnvironment(setting: ["PASTEBOARD_SOCKET": daemon.socketPath])
        var paste = TimedCommand(command: [pb, "paste"], environment: durable)
        var copy = TimedCommand(command: [pb, "copy"], stdin: input, environment: durable)
        var copyInMemory = TimedCommand(command: [pb, "copy"], stdin: input, environment: ChildEnvironment(setting: ["PASTEBOARD_SOCKET": memoryOnly.socketPath]))
        try copy.run()
        try copyInMemory.run()
        var pasteBaseline: TimedCommand?, copyBaseline: TimedCommand?
        var missing = ""
        var server: XServer?
        switch XServer.start() {
        case .success(let started):
            server = started
            setenv("DISPLAY", started.display, 1)
            let xsel = Spawned.find("xsel")!
            copyBaseline = TimedCommand(command: [xsel, "-b", "-i"], stdin: input)
            try copyBaseline?.run()  // something to paste
            pasteBaseline = TimedCommand(command: [xsel, "-b", "-o"])
        case .failure(let reason):
            missing = reason.description
        }
        defer {
            if let server {
                _ = try? Spawned.time([Spawned.find("xsel")!, "-b", "-c"])  // ends the background xsel serving the selection
                server.stop()
            }
        }
        // Pastes first, all from the one xsel that owns the selection since the copy above (as
        // in a loop of pastes), then the copies, each xsel -i leaving a new owner behind.
        for round in 0..<(5 + runs) {
            try paste.run()
            try pasteBaseline?.run()
            if round == 4 {  // the first five rounds warm up, untimed
                paste.times = []
                pasteBaseline?.times = []
            }
        }
        for round in 0..<(5 + runs) {
            try copy.run()
            try copyBaseline?.run()
            try copyInMemory.run()
            if round == 4 {
                copy.times = []
                copyBaseline?.times = []
                copyInMemory.times = []
            }
        }
        let baselineOfPaste = pasteBaseline.map { Figure.median($0.times) }
        let baselineOfCopy = copyBaseline.map { Figure.median($0.times) }
        return [
            row("Small paste: `pb paste`, 16 bytes (median of \(runs))", Figure.median(paste.times), baseline: baselineOfPaste, name: "xsel -b -o", missing: missing),
            row("Small copy: `pb copy` from stdin, 16 bytes, synced to disk (median of \(runs))", Figure.median(copy.times), baseline: baselineOfCopy, name: "xsel -b -i", missing: missing),
            row("Small copy to a memory-only daemon (no sync; median of \(runs))", Figure.median(copyInMemory.times), baseline: baselineOfCopy, name: "xsel -b -i", missing: missing),
        ]
    }

    private func row(_ scenario: String, _ ours: Duration, baseline: Duration?, name: String, missing: String) -> BenchRow {
        let ratio = baseline.map { Figure.seconds(ours) / Figure.seconds($0) }
        return BenchRow(
            scenario: scenario, ours: Figure.milliseconds(ours),
            baseline: baseline.map { "\(Figure.milliseconds($0)) (`\(name)`)" } ?? "— (\(missing))",
            ratio: ratio, goal: "≤ 1.0", met: ratio.map { $0 <= 1.0 })
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// Whole-process times of the commands a shell loop runs: `pb paste` and `pb copy` of a
/// 16-byte item with the daemon warm, against `xsel -b -o` and `xsel -b -i` on Xvfb.
struct SmallCommands {
    let daemon: BenchDaemon
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

    /// The median time of `pb copy` alone (for a memory-only daemon: the copy without the sync).
    func copyTime() throws -> Duration {
        try median([pb, "copy"], stdin: input())
    }

    /// The rows of the small scenarios; `copyInMemory` is `copyTime()` measured against a
    /// memory-only daemon, shown against the same baseline so the cost of the sync is visible.
    func rows(copyInMemory: Duration) throws -> [BenchRow] {
        let input = input()
        try require(Spawned.time([pb, "copy"], stdin: input).status, "pb copy")
        let paste = try median([pb, "paste"])
        let copy = try median([pb, "copy"], stdin: input)

        var pasteBaseline: Duration?, copyBaseline: Duration?
        var missing = ""
        switch XServer.start() {
        case .success(let server):
            defer { server.stop() }
            setenv("DISPLAY", server.display, 1)
            let xsel = Spawned.find("xsel")!
            try require(Spawned.time([xsel, "-b", "-i"], stdin: input).status, "xsel -b -i")
            pasteBaseline = try median([xsel, "-b", "-o"])
            copyBaseline = try median([xsel, "-b", "-i"], stdin: input)
            _ = try? Spawned.time([xsel, "-b", "-c"])  // ends the background xsel serving the selection
        case .failure(let reason):
            missing = reason.description
        }
        return [
            row("Small paste: `pb paste`, 16 bytes (median of \(runs))", paste, baseline: pasteBaseline, name: "xsel -b -o", missing: missing),
            row("Small copy: `pb copy` from stdin, 16 bytes, synced to disk (median of \(runs))", copy, baseline: copyBaseline, name: "xsel -b -i", missing: missing),
            row("Small copy to a memory-only daemon (no sync; median of \(runs))", copyInMemory, baseline: copyBaseline, name: "xsel -b -i", missing: missing),
        ]
    }

    private func row(_ scenario: String, _ ours: Duration, baseline: Duration?, name: String, missing: String) -> BenchRow {
        let ratio = baseline.map { Figure.seconds(ours) / Figure.seconds($0) }
        return BenchRow(
            scenario: scenario, ours: Figure.milliseconds(ours),
            baseline: baseline.map { "\(Figure.milliseconds($0)) (`\(name)`)" } ?? "— (\(missing))",
            ratio: ratio, goal: "≤ 1.0", met: ratio.map { $0 <= 1.0 })
    }

    private func median(_ command: [String], stdin: String = "/dev/null") throws -> Duration {
        for _ in 0..<5 { try require(Spawned.time(command, stdin: stdin).status, command.joined(separator: " ")) }
        var times: [Duration] = []
        for _ in 0..<runs {
            let (status, elapsed) = try Spawned.time(command, stdin: stdin)
            try require(status, command.joined(separator: " "))
            times.append(elapsed)
        }
        return Figure.median(times)
    }

    private func require(_ status: Int32, _ what: String) throws {
        guard status == 0 else { throw BenchError("\(what) exited with status \(status)") }
    }
}

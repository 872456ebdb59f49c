import PasteboardFuzzing

/// Runs files through a target without libFuzzer: for crash reproduction and corpus checks.
enum Replayer {
    /// Replays every input at `paths`, printing `<path>: <summary>` for each; returns the exit status
    /// (0, or 1 when an input could not be read, 2 without paths). A broken invariant traps instead.
    static func run(_ target: FuzzedTarget, paths: [String]) -> Int32 {
        guard !paths.isEmpty else {
            printError("usage: pasteboard-fuzz \(target.name) FILE|DIRECTORY…")
            return 2
        }
        var status: Int32 = 0
        for path in paths {
            do throws(FuzzCorpus.ReadError) {
                for input in try FuzzCorpus.inputs(at: path) {
                    print("\(input): \(target.run(try FuzzCorpus.contents(of: input)))")
                }
            } catch {
                printError("pasteboard-fuzz: \(error)")
                status = 1
            }
        }
        return status
    }
}

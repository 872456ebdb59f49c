/// A whole-process command timed in turn with others (its baseline), each run's duration kept
/// so the median or the best can be reported.
struct TimedCommand {
    let command: [String]
    var stdin = "/dev/null"
    var environment: ChildEnvironment?
    var times: [Duration] = []

    /// Runs the command once, its output to /dev/null, and keeps its time; throws when it fails.
    mutating func run() throws {
        let (status, elapsed) = try Spawned.time(command, stdin: stdin, environment: environment)
        guard status == 0 else { throw BenchError("\(command.joined(separator: " ")) exited with status \(status)") }
        times.append(elapsed)
    }
}

/// One line of the bench's table: our figure, the baseline measured in the same run, their
/// ratio, and the goal the ratio (or, without a baseline, the figure) must meet.
struct BenchRow {
    let scenario: String
    let ours: String
    /// The baseline's figure, or why there is none ("xsel not installed").
    let baseline: String
    /// Ours over the baseline (for rates: ours over theirs, so higher is better).
    let ratio: Double?
    /// The goal, as printed ("≤ 1.0", "≥ 0.6×", "≤ 64 MiB").
    let goal: String
    /// Whether the goal was met; nil when it could not be judged (no baseline).
    let met: Bool?

    /// The table, as Markdown (the README carries it as it is printed).
    static func table(_ rows: [BenchRow]) -> String {
        var lines = [
            "| Scenario | Pasteboard | Baseline | Ratio | Goal | Met |",
            "|---|---|---|---|---|---|",
        ]
        for row in rows {
            let ratio = row.ratio.map { decimal($0, places: 2) } ?? "—"
            let met = row.met.map { $0 ? "yes" : "**no**" } ?? "—"
            let cells = [row.scenario, row.ours, row.baseline, ratio, row.goal, met].map(cell)
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    /// `text` fit for a table cell: a shell pipe in it (`cat F | pb copy`) escaped, since
    /// Markdown ends a cell at a bare `|` even inside backticks.
    private static func cell(_ text: String) -> String {
        text.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
    }
}

/// Figures with their units, for the table.
enum Figure {
    static func milliseconds(_ duration: Duration) -> String {
        decimal(seconds(duration) * 1000, places: 2) + " ms"
    }

    static func mebibytesPerSecond(_ bytes: Int, in duration: Duration) -> String {
        decimal(Double(bytes) / 1_048_576 / seconds(duration), places: 0) + " MiB/s"
    }

    /// Decimal gigabytes (10⁹ bytes) per second, as the desktop tools' throughput is quoted.
    static func gigabytesPerSecond(_ bytes: Int, in duration: Duration) -> String {
        decimal(Double(bytes) / 1e9 / seconds(duration), places: 3) + " GB/s"
    }

    static func mebibytes(_ bytes: Int) -> String {
        decimal(Double(bytes) / 1_048_576, places: 1) + " MiB"
    }

    static func gibibytes(_ bytes: Int) -> String {
        decimal(Double(bytes) / 1_073_741_824, places: 1) + " GiB"
    }

    static func rate(_ perSecond: Double) -> String {
        decimal(perSecond, places: 0) + " req/s"
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The median of `durations` (which must not be empty).
    static func median(_ durations: [Duration]) -> Duration {
        durations.sorted()[durations.count / 2]
    }
}

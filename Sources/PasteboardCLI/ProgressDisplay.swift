#if canImport(Glibc)
import Glibc
#endif
public import Pasteboard
import PasteboardSystem

/// Shows a load's progress on stderr: machine-readable `progress COMPLETED TOTAL` lines
/// (`--progress`), a bar on a terminal when the load is large or slow, or nothing.
public final class ProgressDisplay {
    public enum Mode: Sendable {
        case none, lines, bar
    }

    private let mode: Mode
    private let started = ContinuousClock.now
    private var lastDraw: ContinuousClock.Instant?
    private var drawn = false
    /// Loads at least this large get a bar at once; smaller ones only after `slowAfter`.
    private static let largeLoad = 8 << 20
    private static let slowAfter = Duration.seconds(1)

    public init(mode: Mode) {
        self.mode = mode
    }

    /// `--progress` gives lines, `--no-progress` nothing, else a bar when stderr is a terminal.
    public static func mode(lines: Bool, none: Bool) -> Mode {
        if lines { return .lines }
        if none { return .none }
        return isatty(2) == 1 ? .bar : .none
    }

    public func update(_ progress: LoadProgress) {
        switch mode {
        case .none:
            return
        case .lines:
            Output.printError("progress \(progress.completed) \(progress.total.map(String.init) ?? "?")")
        case .bar:
            let now = ContinuousClock.now
            let worthShowing = (progress.total ?? 0) >= Self.largeLoad || now - started >= Self.slowAfter
            let finished = progress.total == progress.completed
            guard worthShowing || drawn else { return }
            if let lastDraw, now - lastDraw < .milliseconds(100), !finished { return }
            lastDraw = now
            drawn = true
            Output.writeError("\r" + Self.bar(progress) + "\u{1B}[K")
        }
    }

    /// Ends the display (the bar's line is cleared).
    public func finish() {
        if drawn { Output.writeError("\r\u{1B}[K") }
    }

    public static func bar(_ progress: LoadProgress) -> String {
        let width = 30
        let done = ByteCount.describe(progress.completed)
        guard let fraction = progress.fractionCompleted, let total = progress.total else {
            return "[\(String(repeating: "?", count: width))] \(done)"
        }
        let filled = min(width, Int(fraction * Double(width)))
        let percent = min(100, Int(fraction * 100))
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + "\(percent)% \(done) / \(ByteCount.describe(total))"
    }
}

import Logging
import PasteboardDaemon
import XCTest

/// Applying a new configuration to a running daemon: what can change does, at once; what needs
/// a restart keeps its running value and is reported.
final class LiveConfigurationTests: XCTestCase {
    func testLiveKeysApplyAndRestartKeysKeepTheirRunningValues() {
        let running = DaemonConfiguration(socketPath: "/s")
        let levels = LogLevelControl()
        let live = LiveConfiguration(running, logLevel: levels)
        var new = running
        new.maxItemsPerPasteboard = 5
        new.maxInMemorySize = 16 << 20
        new.historyBytes = 1 << 20
        new.logLevel = .debug
        new.window = 8 << 20
        new.handoff = false
        new.socketPath = "/elsewhere"

        let change = live.apply(new)
        XCTAssertEqual(change.applied.map(\.description), [
            "max-in-memory-size: 256M -> 16M", "max-items: 10000 -> 5", "history-bytes: 1G -> 1M", "log-level: info -> debug",
        ])
        XCTAssertEqual(change.needsRestart.map(\.description), ["window: 4M -> 8M", "no-handoff: no -> yes"])
        XCTAssertEqual(live.current.maxItemsPerPasteboard, 5)
        XCTAssertEqual(live.current.maxInMemorySize, 16 << 20, "the memory cap is reloadable like max-representation-size")
        XCTAssertEqual(live.current.historyBytes, 1 << 20)
        XCTAssertEqual(live.current.window, running.window, "the window needs a restart")
        XCTAssertTrue(live.current.handoff, "hand-off needs a restart")
        XCTAssertEqual(live.current.socketPath, "/s", "the socket stays")
        XCTAssertEqual(levels.level, .debug, "the log level follows")

        XCTAssertEqual(live.apply(new).applied, [], "applying the same again changes nothing")
    }

    func testTurningMemoryOnlyOnOrOffNeedsARestart() {
        var running = DaemonConfiguration(socketPath: "/s")
        running.stateDirectory = "/state"
        let live = LiveConfiguration(running)
        var new = running
        new.stateDirectory = nil
        let change = live.apply(new)
        XCTAssertEqual(Set(change.needsRestart.map(\.key)), ["state-directory", "memory-only"])
        XCTAssertEqual(live.current.stateDirectory, "/state")
    }

    func testAMemoryOnlyDaemonsHistoryHoldsAtMostWhatIsKeptInMemory() {
        var durable = DaemonConfiguration(socketPath: "/s")
        durable.stateDirectory = "/state"
        XCTAssertEqual(durable.historyLimits, HistoryLimits(entries: 100, bytes: 1 << 30), "1 GiB of history on disk by default")
        var memoryOnly = durable
        memoryOnly.stateDirectory = nil
        XCTAssertEqual(memoryOnly.historyLimits.bytes, 256 << 20, "the 1 GiB default is capped at max-in-memory-size")
        memoryOnly.maxInMemorySize = 1 << 40
        XCTAssertEqual(memoryOnly.historyLimits.bytes, 1 << 30, "a larger memory cap does not raise history-bytes")
        memoryOnly.maxInMemorySize = 8 << 20
        XCTAssertEqual(memoryOnly.historyLimits.bytes, 8 << 20, "a reload of the memory cap moves the history's bound")
    }
}

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
            "max-in-memory-size: 256M -> 16M", "max-items: 10000 -> 5", "history-bytes: 64M -> 1M", "log-level: info -> debug",
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
}

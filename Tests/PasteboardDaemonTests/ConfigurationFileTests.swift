import Foundation
import Logging
import PasteboardDaemon
import XCTest

/// The configuration file's format: `key = value` lines, comments, sizes with suffixes, and
/// errors that name the file, the line and the key.
final class ConfigurationFileTests: XCTestCase {
    /// The repository's `Config/` directory.
    static let configDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Config")

    private let defaults = DaemonConfiguration(socketPath: "/run/user/1000/pasteboard/pasteboardd.sock")

    private func configuration(_ text: String, environment: [String: String] = [:]) throws -> DaemonConfiguration {
        var configuration = defaults
        for setting in try ConfigurationFile.parse(text, path: "test.conf", environment: environment) {
            try setting.apply(to: &configuration, environment: environment)
        }
        return configuration
    }

    private func error(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            _ = try ConfigurationFile.parse(text, path: "test.conf", environment: ["HOME": "/home/u"])
            XCTFail("parsed without an error: \(text)", file: file, line: line)
            return ""
        } catch {
            return error.description
        }
    }

    func testTheShippedFileListsEveryKeyWithItsBuiltInDefault() throws {
        let path = Self.configDirectory.appendingPathComponent("pasteboardd.conf").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let settings = try ConfigurationFile.parse(text, path: path, environment: ["HOME": "/home/u"])
        var configuration = defaults
        for setting in settings { try setting.apply(to: &configuration, environment: [:]) }
        XCTAssertEqual(configuration, defaults, "Config/pasteboardd.conf gives other values than the built-in defaults")

        let given = Set(settings.map(\.key.name))
        for key in ConfigurationKey.all where key.name != ConfigurationKey.stateDirectory.name {
            XCTAssertTrue(given.contains(key.name), "Config/pasteboardd.conf does not set \(key.name)")
        }
        // The state directory's default depends on the environment, so the file shows it commented out.
        XCTAssertTrue(text.contains("\n# state-directory = "), "Config/pasteboardd.conf does not show state-directory")
        XCTAssertEqual(settings.map(\.key.name), ConfigurationKey.all.map(\.name).filter { $0 != "state-directory" },
                       "the file lists the keys in the order of ConfigurationKey.all (and pasteboardd(8))")
    }

    /// The limits that follow from disk, not memory (issue 27): a large eager copy is kept on
    /// disk, so its bound is what a disk holds; what stays in memory keeps the old 256 MiB.
    func testTheSizeDefaultsFollowDiskAndMemory() throws {
        XCTAssertEqual(defaults.maxRepresentationSize, 256 << 30)
        XCTAssertEqual(defaults.maxInMemorySize, 256 << 20)
        XCTAssertEqual(defaults.historyBytes, 1 << 30)
        XCTAssertEqual(ConfigurationKey.maxRepresentationSize.value(in: defaults), "256G")
        XCTAssertEqual(ConfigurationKey.maxInMemorySize.value(in: defaults), "256M")
        XCTAssertEqual(ConfigurationKey.historyBytes.value(in: defaults), "1G")
        XCTAssertFalse(ConfigurationKey.maxInMemorySize.needsRestart, "a reload applies max-in-memory-size, as max-representation-size")
    }

    func testMaxInMemorySizeTakesASizeOfAtLeastOneByteUpTo1024G() throws {
        XCTAssertEqual(try configuration("max-in-memory-size = 1").maxInMemorySize, 1)
        XCTAssertEqual(try configuration("max-in-memory-size = 16M").maxInMemorySize, 16 << 20)
        XCTAssertEqual(try configuration("max-in-memory-size = 1024G").maxInMemorySize, 1 << 40)
        XCTAssertEqual(error("max-in-memory-size = 0"), "test.conf:1: max-in-memory-size: must be more than 0, not 0")
        XCTAssertEqual(error("max-in-memory-size = 1025G"),
                       "test.conf:1: max-in-memory-size: must be at most 1024G (1099511627776 bytes), not 1025G")
        XCTAssertEqual(error("max-in-memory-size = 99999999999999999999"),
                       "test.conf:1: max-in-memory-size: must be at most 1024G (1099511627776 bytes), not 99999999999999999999")
        XCTAssertEqual(error("max-in-memory-size = 1.5G"),
                       "test.conf:1: max-in-memory-size: '1.5G' is not a size in bytes (a whole number, optionally followed by K, M or G)")
    }

    func testCommentsBlankLinesAndSpacesAroundTheEqualsSignAreIgnored() throws {
        let parsed = try configuration("""
            # a comment

              max-items=7
            \tmax-connections   =  9\t
               # an indented comment
            log-level = debug\r
            session-timeout = 2.5
            """)
        XCTAssertEqual(parsed.maxItemsPerPasteboard, 7)
        XCTAssertEqual(parsed.maxConnections, 9)
        XCTAssertEqual(parsed.logLevel, .debug)
        XCTAssertEqual(parsed.sessionTimeout, 2.5)
        XCTAssertEqual(try configuration(""), defaults, "an empty file changes nothing")
    }

    func testSizesTakeSuffixesInPowersOf1024() throws {
        XCTAssertEqual(try configuration("capture-budget = 256K").captureBudget, 256 << 10)
        XCTAssertEqual(try configuration("capture-budget = 64M").captureBudget, 64 << 20)
        XCTAssertEqual(try configuration("capture-budget = 1g").captureBudget, 1 << 30)
        XCTAssertEqual(try configuration("capture-budget = 1000").captureBudget, 1000)
        XCTAssertEqual(try configuration("capture-budget = 0").captureBudget, 0)
        for bad in ["64MB", "-1", "1.5M", "M", "0x10"] {
            XCTAssertEqual(error("capture-budget = \(bad)"),
                           "test.conf:1: capture-budget: '\(bad)' is not a size in bytes (a whole number, optionally followed by K, M or G)")
        }
        // Too large is said so, whether or not it would fit an Int.
        for large in ["99999999999G", "99999999999999999999", "1025G"] {
            XCTAssertEqual(error("capture-budget = \(large)"), "test.conf:1: capture-budget: must be at most 1024G (1099511627776 bytes), not \(large)")
        }
        XCTAssertEqual(ByteSize.format(64 << 20), "64M")
        XCTAssertEqual(ByteSize.format(1 << 30), "1G")
        XCTAssertEqual(ByteSize.format(1536), "1536")
    }

    func testTimeoutsTakeNoneAndZeroWhereItMeansNoLimit() throws {
        XCTAssertNil(try configuration("idle-timeout = 0").idleTimeout)
        XCTAssertNil(try configuration("handshake-timeout = none").handshakeTimeout)
        XCTAssertEqual(try configuration("idle-timeout = 0.5").idleTimeout, 0.5)
        XCTAssertNil(try configuration("session-timeout = none").sessionTimeout)
        XCTAssertEqual(error("session-timeout = 0"), "test.conf:1: session-timeout: must be more than 0 seconds, or none for no limit, not 0")
        XCTAssertEqual(error("idle-timeout = -3"), "test.conf:1: idle-timeout: '-3' is not a number of seconds, or none")
        XCTAssertEqual(error("idle-timeout = forever"), "test.conf:1: idle-timeout: 'forever' is not a number of seconds, or none")
    }

    func testYesNoKeysAndTheStateDirectory() throws {
        XCTAssertFalse(try configuration("no-handoff = yes").handoff)
        XCTAssertTrue(try configuration("no-handoff = off").handoff)
        XCTAssertNil(try configuration("memory-only = yes").stateDirectory)
        var withDirectory = defaults
        withDirectory.stateDirectory = "/var/state"
        XCTAssertEqual(try configuration("memory-only = no").stateDirectory, defaults.stateDirectory)
        XCTAssertEqual(try configuration("state-directory = ~/pb-state", environment: ["HOME": "/home/u"]).stateDirectory, "/home/u/pb-state")
        XCTAssertEqual(try configuration("state-directory = /srv/pb state").stateDirectory, "/srv/pb state", "the value is the rest of the line")
        XCTAssertEqual(error("state-directory = pb-state"), "test.conf:1: state-directory: must be an absolute path or start with ~/, not 'pb-state'")
        XCTAssertEqual(error("no-handoff = maybe"), "test.conf:1: no-handoff: 'maybe' is not yes or no")
        XCTAssertEqual(error("state-directory = /srv/pb\nmemory-only = yes"),
                       "test.conf:2: memory-only: cannot be yes when state-directory is set (line 1); remove one")
    }

    func testEachErrorNamesTheFileTheLineAndTheKey() {
        XCTAssertEqual(error("max-items = 5\nmax-item = 5"),
                       "test.conf:2: max-item: unknown key (the keys are listed under CONFIGURATION in pasteboardd(8))")
        XCTAssertEqual(error("--max-items = 5"), "test.conf:1: --max-items: unknown key (write keys without dashes: max-items)")
        XCTAssertEqual(error("# fine\nmax-items = lots"), "test.conf:2: max-items: 'lots' is not a whole number")
        XCTAssertEqual(error("max-items = 0"), "test.conf:1: max-items: must be at least 1, not 0")
        XCTAssertEqual(error("max-frame-length = 2M"),
                       "test.conf:1: max-frame-length: must be from 64K to 1M (65536 to 1048576 bytes), not 2M")
        XCTAssertEqual(error("window = 1000"), "test.conf:1: window: must be at least 64K (65536 bytes), not 1000")
        XCTAssertEqual(error("max-representation-size = 0"), "test.conf:1: max-representation-size: must be more than 0, not 0")
        XCTAssertEqual(error("log-level = loud"),
                       "test.conf:1: log-level: 'loud' is not a log level (trace, debug, info, notice, warning, error, critical)")
        XCTAssertEqual(error("max-items = 5\n\nmax-items = 6"), "test.conf:3: max-items: given twice (first on line 1)")
        XCTAssertEqual(error("max-items 5"), "test.conf:1: expected 'key = value', not 'max-items 5'")
        XCTAssertEqual(error("= 5"), "test.conf:1: expected a key before '='")
        XCTAssertEqual(error("max-items ="), "test.conf:1: max-items: no value after '='")
        XCTAssertEqual(error("max-items = 5 # five"), "test.conf:1: max-items: '5 # five' is not a whole number",
                       "a comment takes a line of its own")
    }

    func testTheFirstErrorInTheFileIsTheOneReported() {
        XCTAssertEqual(error("max-items = none\nno-such-key = 1"), "test.conf:1: max-items: 'none' is not a whole number")
    }
}

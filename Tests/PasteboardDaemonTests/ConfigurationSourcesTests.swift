import Foundation
import PasteboardDaemon
import XCTest

/// Where the configuration comes from: built-in defaults, then the file, then the command line.
final class ConfigurationSourcesTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pbconf-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    private func write(_ text: String, to name: String = "pasteboardd.conf") throws -> String {
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testTheDefaultFileIsUnderXDGConfigHomeElseHome() {
        XCTAssertEqual(ConfigurationFile.located(explicitPath: nil, environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]),
                       ConfigurationFile(path: "/c/pasteboard/pasteboardd.conf", isRequired: false))
        XCTAssertEqual(ConfigurationFile.located(explicitPath: nil, environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]),
                       ConfigurationFile(path: "/h/.config/pasteboard/pasteboardd.conf", isRequired: false))
        XCTAssertEqual(ConfigurationFile.located(explicitPath: "my.conf", environment: ["HOME": "/h"]),
                       ConfigurationFile(path: "my.conf", isRequired: true))
        XCTAssertNil(ConfigurationFile.located(explicitPath: nil, environment: [:]))
    }

    func testTheCommandLineBeatsTheFileWhichBeatsTheDefaults() throws {
        let path = try write("max-items = 2\nmax-connections = 3\n")
        let sources = ConfigurationSources(
            defaults: DaemonConfiguration(socketPath: "/s"), file: ConfigurationFile(path: path, isRequired: true),
            commandLine: [ConfigurationSetting(.maxItems, "5", origin: .commandLine)], environment: [:])
        let configuration = try sources.load()
        XCTAssertEqual(configuration.maxItemsPerPasteboard, 5, "the command line")
        XCTAssertEqual(configuration.maxConnections, 3, "the file")
        XCTAssertEqual(configuration.maxLoadsPerConnection, 16, "the default")
    }

    func testAMissingDefaultFileLeavesTheDefaultsAndAMissingNamedFileIsAnError() throws {
        let missing = directory.appendingPathComponent("none.conf").path
        let optional = ConfigurationSources(
            defaults: DaemonConfiguration(socketPath: "/s"), file: ConfigurationFile(path: missing, isRequired: false),
            commandLine: [], environment: [:])
        XCTAssertEqual(try optional.load(), DaemonConfiguration(socketPath: "/s"))

        var required = optional
        required.file = ConfigurationFile(path: missing, isRequired: true)
        XCTAssertThrowsError(try required.load()) { error in
            XCTAssertEqual("\(error)", "cannot read configuration file \(missing): No such file or directory")
        }
    }

    func testABadCommandLineValueNamesTheOption() {
        var configuration = DaemonConfiguration(socketPath: "/s")
        XCTAssertThrowsError(try ConfigurationSetting(.maxConnections, "0", origin: .commandLine).apply(to: &configuration, environment: [:])) { error in
            XCTAssertEqual("\(error)", "--max-connections: must be at least 1, not 0")
        }
    }
}

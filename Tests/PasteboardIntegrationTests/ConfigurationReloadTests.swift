import Foundation
import Glibc
import XCTest

/// The daemon's configuration file ($XDG_CONFIG_HOME/pasteboard/pasteboardd.conf): its limits
/// apply, SIGHUP applies an edited file without a restart, and a bad file is a clear error that
/// leaves the running configuration in place.
final class ConfigurationReloadTests: IntegrationTestCase {
    /// Restarts the daemon, which then reads the sandbox's configuration file.
    /// Sends SIGHUP and waits until the daemon has reloaded for the `count`th time.
    private func reload(count: Int = 1, file: StaticString = #filePath, line: UInt = #line) {
        daemon.signal(SIGHUP)
        XCTAssertTrue(daemon.waitForLog("configuration reloaded", count: count), "no reload logged: \(daemon.log)", file: file, line: line)
    }

    /// Files named `names` in the sandbox, each holding its name; their paths.
    private func files(_ names: String...) throws -> [String] {
        try names.map { name in
            try Data(name.utf8).write(to: URL(fileURLWithPath: sandbox.path(name)))
            return sandbox.path(name)
        }
    }

    /// `pb copy` of three files, one item each.
    private func copyThreeItems() throws -> ProcessResult {
        try runTool("pb", ["copy"] + files("a", "b", "c"), environment: sandbox.environment(), in: sandbox)
    }

    func testALimitSetInTheFileApplies() throws {
        try sandbox.writeConfiguration("# two at most\nmax-items = 2\n")
        try restartDaemon()
        try pbOK("copy", stdin: Data("before".utf8))
        let refused = try copyThreeItems()
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("3 items exceed the limit of 2"), refused.stderr)
        XCTAssertEqual(try pbOK("paste").stdoutText, "before")
    }

    func testASizeInTheFileTakesASuffix() throws {
        try sandbox.writeConfiguration("max-representation-size = 1K\n")
        try restartDaemon()
        let refused = try pb("copy", stdin: Data(repeating: 7, count: 2000))
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("over max-representation-size (1.0 KiB)"), refused.stderr)
        try pbOK("copy", stdin: Data(repeating: 7, count: 1000))
    }

    func testSIGHUPAppliesTheEditedFileWithoutARestartAndThePasteboardsStay() throws {
        try sandbox.writeConfiguration("max-items = 2\n")
        try restartDaemon()
        try pbOK("copy", "-p", "kept", stdin: Data("kept".utf8))
        let watcher = try startPB("watch", "-p", "kept")
        XCTAssertNotEqual(try copyThreeItems().status, 0)

        try sandbox.writeConfiguration("max-items = 3\nlog-level = debug\n")
        reload()
        XCTAssertTrue(daemon.log.contains("max-items: 2 -> 3"), daemon.log)
        try pbOK("copy", sandbox.path("a"), sandbox.path("b"), sandbox.path("c"))
        XCTAssertEqual((try listing()["items"] as? [Any])?.count, 3)
        XCTAssertEqual(try pbOK("paste", "-p", "kept").stdoutText, "kept")
        XCTAssertTrue(daemon.process.isRunning)
        XCTAssertTrue(daemon.waitForLog("handshake complete"), "the new log level applies: \(daemon.log)")
        XCTAssertTrue(watcher.process.isRunning, "a connection open across the reload stays open")
    }

    func testALowerHistoryBoundOnSIGHUPDropsTheOldestEntriesAtOnce() throws {
        try sandbox.writeConfiguration("history-items = 3\n")
        try restartDaemon()
        for text in ["one", "two", "three", "four"] { try pbOK("copy", stdin: Data(text.utf8)) }
        let previews = {
            let history = try self.pbOK("history", "--json").stdout
            return try XCTUnwrap(JSONSerialization.jsonObject(with: history) as? [[String: Any]]).map { $0["preview"] as? String ?? "-" }
        }
        XCTAssertEqual(try previews(), ["four", "three", "two"])

        try sandbox.writeConfiguration("history-items = 1\n")
        reload()
        XCTAssertEqual(try previews(), ["four"], "the oldest entries left without waiting for the next copy")
        let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.stateDirectory + "/history").filter { $0.hasSuffix(".entry") }
        XCTAssertEqual(files.count, 1, "their files went too: \(files)")
        for text in ["two", "three"] { XCTAssertFalse(try stateFilesContain(text), "\(text) left the journal too") }
        XCTAssertEqual(try pbOK("paste").stdoutText, "four")
    }

    func testAKeyThatNeedsARestartKeepsItsRunningValueAndSaysSo() throws {
        try sandbox.writeConfiguration("max-frame-length = 64K\n")
        try restartDaemon()
        try sandbox.writeConfiguration("max-frame-length = 1M\nmax-items = 2\n")
        reload()
        XCTAssertTrue(daemon.log.contains("max-frame-length needs a restart: keeping 64K, not 1M"), daemon.log)
        let client = try RawClient(socketPath: sandbox.socketPath)
        defer { client.close() }
        XCTAssertEqual(try client.hello().json?["maxFrameLength"] as? Int, 65536, "new clients still get the running frame limit")
        XCTAssertTrue(try copyThreeItems().stderr.contains("3 items exceed the limit of 2"), "the rest of the file applied")
    }

    func testABadFileOnSIGHUPIsLoggedAndTheRunningConfigurationStaysEntirely() throws {
        try sandbox.writeConfiguration("max-items = 2\n")
        try restartDaemon()
        try pbOK("copy", stdin: Data("before".utf8))

        try sandbox.writeConfiguration("max-items = 5\nmax-connections = lots\n")
        daemon.signal(SIGHUP)
        XCTAssertTrue(daemon.waitForLog("configuration not reloaded"), daemon.log)
        XCTAssertTrue(daemon.log.contains("\(sandbox.configurationFile):2: max-connections: 'lots' is not a whole number"), daemon.log)
        let refused = try copyThreeItems()
        XCTAssertTrue(refused.stderr.contains("3 items exceed the limit of 2"), "max-items = 5 was not half-applied: \(refused.stderr)")
        XCTAssertEqual(try pbOK("paste").stdoutText, "before")

        try sandbox.writeConfiguration("max-items = 5\n")
        reload()
        try pbOK("copy", sandbox.path("a"), sandbox.path("b"), sandbox.path("c"))
    }

    func testABadFileAtStartIsAClearErrorAndNothingIsLost() throws {
        try pbOK("copy", stdin: Data("before".utf8))
        daemon.stop()
        let file = sandbox.configurationFile
        let cases = [
            ("max-item = 2\n", "\(file):1: max-item: unknown key"),
            ("max-items = 2\n# again\nmax-items = 3\n", "\(file):3: max-items: given twice (first on line 1)"),
            ("\nwindow = 1K\n", "\(file):2: window: must be at least 64K (65536 bytes), not 1K"),
            ("idle-timeout = soon\n", "\(file):1: idle-timeout: 'soon' is not a number of seconds, or none"),
            ("max-items 2\n", "\(file):1: expected 'key = value', not 'max-items 2'"),
        ]
        for (text, message) in cases {
            try sandbox.writeConfiguration(text)
            let result = try runTool("pasteboardd", [], environment: sandbox.environment(), in: sandbox)
            XCTAssertEqual(result.status, 78, "\(text): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "expected \(message) in: \(result.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.socketPath), "nothing listens")
        }
        try FileManager.default.removeItem(atPath: file)
        daemon = try DaemonProcess.started(in: sandbox)
        XCTAssertEqual(try pbOK("paste").stdoutText, "before")
    }

    func testAFileNamedWithConfigMustExistAndIsReadInsteadOfTheDefault() throws {
        daemon.stop()
        let missing = sandbox.path("missing.conf")
        let result = try runTool("pasteboardd", ["--config", missing], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(result.status, 78)
        XCTAssertTrue(result.stderr.contains("cannot read configuration file \(missing): No such file or directory"), result.stderr)

        try sandbox.writeConfiguration("max-items = 1\n")
        let own = sandbox.path("own.conf")
        try "max-items = 2\n".write(toFile: own, atomically: true, encoding: .utf8)
        daemon = try DaemonProcess.started(in: sandbox, arguments: ["--config", own])
        XCTAssertTrue(try copyThreeItems().stderr.contains("3 items exceed the limit of 2"))
        try "max-items = 3\n".write(toFile: own, atomically: true, encoding: .utf8)
        reload()
        try pbOK("copy", sandbox.path("a"), sandbox.path("b"), sandbox.path("c"))
    }

    func testTheCommandLineBeatsTheFileAlsoAfterAReload() throws {
        try sandbox.writeConfiguration("max-items = 2\n")
        try restartDaemon(["--max-items", "3"])
        XCTAssertEqual(try copyThreeItems().status, 0, "--max-items 3 beats the file's 2")

        try sandbox.writeConfiguration("max-items = 1\n")
        reload()
        XCTAssertEqual(try copyThreeItems().status, 0, "still 3 after the reload")
        let four = try runTool("pb", ["copy"] + files("a", "b", "c", "d"), environment: sandbox.environment(), in: sandbox)
        XCTAssertTrue(four.stderr.contains("4 items exceed the limit of 3"), four.stderr)
    }
}

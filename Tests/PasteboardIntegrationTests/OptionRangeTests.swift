import Foundation
import Glibc
import XCTest

/// Numbers from the command line and the configuration file: out of range is a clear error at
/// the boundary (a usage error for an option: pb and gallery exit 2, pasteboardd 64 as its
/// sysexits statuses go; 78 for the file at start; a reload keeps what runs), and never a crash
/// at the next connection.
final class OptionRangeTests: IntegrationTestCase {
    func testPBRefusesSecondsItCannotWaitWithExitTwo() throws {
        try pbOK("copy", stdin: Data("before".utf8))
        let cases: [[String]] = [
            ["copy", "--expire", "1e19"], ["copy", "--expire", "inf"], ["copy", "--expire", "nan"],
            ["copy", "--expire", "1000000001"], ["copy", "--expire", "0"],
            ["drag", "--timeout", "1e19", "--rep", "public.utf8-plain-text=x"], ["drag", "--timeout", "inf", "--rep", "public.utf8-plain-text=x"],
        ]
        for arguments in cases {
            let result = try runTool("pb", arguments, stdin: Data("after".utf8), environment: sandbox.environment(), in: sandbox)
            XCTAssertEqual(result.status, 2, "pb \(arguments.joined(separator: " ")): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("must be more than 0 and at most 1000000000 seconds"), "pb \(arguments): \(result.stderr)")
        }
        let gallery = try runTool("gallery", ["drag", "0", "--timeout", "1e19"], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(gallery.status, 2, gallery.stderr)
        XCTAssertTrue(gallery.stderr.contains("at most 1000000000 seconds"), gallery.stderr)
        XCTAssertEqual(try pbOK("paste").stdoutText, "before", "nothing reached the daemon")
        // The largest span is accepted.
        try pbOK("copy", "--expire", "1000000000", stdin: Data("after".utf8))
        XCTAssertEqual(try pbOK("paste").stdoutText, "after")
    }

    func testTheDaemonRefusesOutOfRangeOptionsAsUsageErrors() throws {
        daemon.stop()
        let cases: [([String], String)] = [
            (["--idle-timeout", "1e19"], "at most 1000000000 seconds"),
            (["--handshake-timeout", "1e19"], "at most 1000000000 seconds"),
            (["--session-timeout", "1e400"], "is not a number of seconds"),
            (["--session-timeout", "2000000000"], "at most 1000000000 seconds"),
            (["--max-connections", "9223372036854775807"], "must be at most 1000000"),
            (["--max-items", "99999999999999999999"], "must be at most 1000000"),
            (["--window", "2048G"], "must be at most 1024G"),
            (["--max-representation-size", "99999999999999999999G"], "must be at most 1024G"),
            (["--max-in-memory-size", "2048G"], "must be at most 1024G"),
            (["--max-in-memory-size", "0"], "must be more than 0"),
        ]
        for (arguments, message) in cases {
            let result = try runTool("pasteboardd", arguments, environment: sandbox.environment(), in: sandbox)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): expected \(message) in \(result.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.socketPath), "nothing listens")
        }
    }

    func testAnOutOfRangeFileIsExit78AtStartAndKeptOutOnReload() throws {
        try pbOK("copy", stdin: Data("before".utf8))
        daemon.stop()
        let file = sandbox.configurationFile
        for (text, message) in [
            ("idle-timeout = 1e19\n", "\(file):1: idle-timeout: must be more than 0 and at most 1000000000 seconds"),
            ("handshake-timeout = 1e19\n", "\(file):1: handshake-timeout: must be more than 0 and at most 1000000000 seconds"),
            ("max-loads-per-connection = 1000001\n", "\(file):1: max-loads-per-connection: must be at most 1000000"),
        ] {
            try sandbox.writeConfiguration(text)
            let result = try runTool("pasteboardd", [], environment: sandbox.environment(), in: sandbox)
            XCTAssertEqual(result.status, 78, "\(text): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "expected \(message) in: \(result.stderr)")
        }

        try sandbox.writeConfiguration("idle-timeout = 600\n")
        daemon = try DaemonProcess.started(in: sandbox)
        try sandbox.writeConfiguration("idle-timeout = 1e19\n")
        daemon.signal(SIGHUP)
        XCTAssertTrue(daemon.waitForLog("configuration not reloaded"), daemon.log)
        XCTAssertTrue(daemon.log.contains("idle-timeout: must be more than 0 and at most 1000000000 seconds"), daemon.log)
        // The next connections are served (a huge idle timeout used to trap when armed).
        XCTAssertEqual(try pbOK("paste").stdoutText, "before")
        try pbOK("copy", stdin: Data("after".utf8))
        XCTAssertEqual(try pbOK("paste").stdoutText, "after")
    }
}

import Foundation
import XCTest

/// How pb and gallery speak to a new user: one error style (`pb: …`, ArgumentParser's own
/// errors included, usage lines after), numbers out of range named as such (a negative number
/// is not a missing value), MIME types as the user typed them, and every exit status in --help.
final class ErrorStyleTests: IntegrationTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    func testArgumentErrorsComeInTheToolsOwnStyle() throws {
        for (arguments, first) in [
            (["nosuch"], "pb: unexpected argument 'nosuch'"),
            (["paste", "--bogus"], "pb: unknown option '--bogus'"),
            (["paste", "--item"], "pb: missing value for '--item <n>'"),
        ] {
            let result = try runTool("pb", arguments, environment: sandbox.environment(), in: sandbox)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").first.map(String.init), first, result.stderr)
            XCTAssertFalse(result.stderr.contains("Error:"), result.stderr)
            XCTAssertTrue(result.stderr.contains("Usage: pb"), "the usage still follows: \(result.stderr)")
        }
        // `pb nosuch --help` is not pb's own help with status 0.
        let unknownHelp = try runTool("pb", ["nosuch", "--help"], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(unknownHelp.status, 2, unknownHelp.stderr)
        XCTAssertEqual(unknownHelp.stderr, "pb: unknown subcommand 'nosuch'; see pb --help\n")
        XCTAssertEqual(unknownHelp.stdout.count, 0)
        let gallery = try runTool("gallery", ["move", "x"], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(gallery.status, 2, gallery.stderr)
        XCTAssertTrue(gallery.stderr.hasPrefix("gallery: "), gallery.stderr)
    }

    func testNegativeNumbersAreRangeErrorsNotMissingValues() throws {
        try pbOK("copy", stdin: Data("kept".utf8))
        let cases: [(tool: String, arguments: [String], message: String)] = [
            ("pb", ["paste", "--item", "-1"], "pb: --item must be 0 or more (items are counted from 0), not -1"),
            ("pb", ["paste", "--item=-1"], "pb: --item must be 0 or more (items are counted from 0), not -1"),
            ("pb", ["drop", "--session", "-3"], "pb: --session must be 1 or more (session ids count from 1), not -3"),
            ("pb", ["drag", "--add", "0", "--rep", "public.utf8-plain-text=x"], "pb: --add must be 1 or more (session ids count from 1), not 0"),
            ("pb", ["copy", "--expire", "-5"], "pb: --expire must be more than 0 and at most 1000000000 seconds"),
            ("pb", ["drag", "--timeout", "-1", "--rep", "public.utf8-plain-text=x"], "pb: --timeout must be more than 0"),
            ("gallery", ["add", "--at", "-1", "x.png"], "gallery: --at must be 0 or more, not -1"),
            ("gallery", ["drop", "--at", "-2"], "gallery: --at must be 0 or more, not -2"),
            ("gallery", ["trash", "--session", "-1"], "gallery: --session must be 1 or more (session ids count from 1), not -1"),
        ]
        for (tool, arguments, message) in cases {
            let result = try runTool(tool, arguments, stdin: Data("new".utf8), environment: sandbox.environment(), in: sandbox)
            XCTAssertEqual(result.status, 2, "\(tool) \(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix(message), "\(tool) \(arguments): expected \(message) in \(result.stderr)")
        }
        XCTAssertEqual(try pbOK("paste").stdoutText, "kept", "nothing reached the daemon")
    }

    func testErrorsShowTheMIMETypeTheUserTyped() throws {
        try pbOK("copy", "-t", "application/x-notes", stdin: Data("n".utf8))
        let paste = try pb("paste", "-t", "text/x-foo")
        XCTAssertEqual(paste.status, 1)
        XCTAssertEqual(paste.stderr, "pb: no representation conforming to text/x-foo (the item offers application/x-notes)\n")
        XCTAssertFalse(paste.stderr.contains("dyn.mime"), paste.stderr)
    }

    func testHelpListsEveryExitStatus() throws {
        let help = try pbOK("--help").stdoutText.replacingOccurrences(of: "\n", with: " ")
        for status in ["0 success", "1 failure", "2 usage error", "3 daemon unreachable", "130 interrupted"] {
            XCTAssertTrue(help.contains(status), "'\(status)' in \(help)")
        }
    }
}

import Foundation
import TestSupport
import XCTest

/// `pb copy --osc52` and `pb paste --osc52` inside a real tmux (Debian's 3.3a) of the test's own,
/// with the README's `set -g set-clipboard on`: a copy becomes tmux's newest paste buffer, a
/// paste reads tmux's answer from that buffer, and a tmux that ignores the sequences
/// (`set-clipboard external`, tmux's default) leaves the paste to its bounded wait. Each pb runs
/// in a window of its own, on that window's terminal.
final class OSC52TmuxTests: IntegrationTestCase {
    /// No daemon unless a test starts one: OSC 52 never touches it.
    override class var daemonRunsInProcess: Bool { true }
    override class var startsDaemonInSetUp: Bool { false }

    private var server: TmuxServer!
    private var scripts = 0

    override func setUpWithError() throws {
        guard let tmux = executableInPath("tmux") else { throw XCTSkip("tmux is not installed (apt-get install tmux; .ci/run installs it)") }
        try super.setUpWithError()
        let configuration = sandbox.path("tmux.conf")
        try ReadmeCodeBlock.text(language: "tmux", inSection: "## OSC 52: the terminal's clipboard").write(toFile: configuration, atomically: true, encoding: .utf8)
        server = try TmuxServer(tmux: tmux, configuration: configuration, command: "exec sleep 100000", in: sandbox)
    }

    override func tearDown() {
        server?.killServer()
        server = nil
        super.tearDown()
    }

    private var pbPath: String { Binaries.url("pb").path }

    /// Runs `body` (a shell script; `$PB` is pb) in a new tmux window and waits for it to end.
    @discardableResult
    private func runInWindow(_ body: String) throws -> (status: Int32?, stderr: String) {
        scripts += 1
        let script = try TerminalScript("window-\(scripts)", "PB='\(pbPath)'\n" + body, in: sandbox)
        try server.run("new-window", "-d", "-t", "test", script.command)
        return (script.waitForStatus(), script.stderr)
    }

    /// Runs `body` in a new window and checks it fails with `status`, its stderr containing `message`.
    private func assertFails(_ body: String, status: Int32, saying message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try runInWindow(body)
        XCTAssertEqual(result.status, status, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains(message), result.stderr, file: file, line: line)
    }

    private func write(_ text: String, to name: String) throws -> String {
        let path = sandbox.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func newestBuffer() throws -> String {
        try server.run("show-buffer").stdoutText
    }

    func testACopyBecomesTmuxsNewestBuffer() throws {
        let text = "héllo\nOSC 52 from pb\n"
        let file = try write(text, to: "text")
        let result = try runInWindow("\"$PB\" copy --osc52 < '\(file)'")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(try newestBuffer(), text)
        let primary = try runInWindow("\"$PB\" copy --osc52 -p primary '\(try write("from a file", to: "file"))'")
        XCTAssertEqual(primary.status, 0, primary.stderr)
        XCTAssertEqual(try newestBuffer(), "from a file")
    }

    func testACopyOverTheLimitIsRefusedNamingTheLimitAndSendsNothing() throws {
        let file = try write(String(repeating: "x", count: 74_995), to: "large")
        let refused = try runInWindow("\"$PB\" copy --osc52 < '\(file)'")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("at most 74994 bytes"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("PASTEBOARD_OSC52_LIMIT"), refused.stderr)
        XCTAssertEqual(try server.bufferNames(), [])
        let raised = try runInWindow("PASTEBOARD_OSC52_LIMIT=200000 \"$PB\" copy --osc52 < '\(file)'")
        XCTAssertEqual(raised.status, 0, raised.stderr)
        XCTAssertEqual(try newestBuffer().count, 74_995)
    }

    func testACopyOfWhatIsNotTextIsRefused() throws {
        let binary = sandbox.path("binary")
        try Data([0xff, 0xfe, 0x00, 0x01]).write(to: URL(fileURLWithPath: binary))
        try assertFails("\"$PB\" copy --osc52 < '\(binary)'", status: 1, saying: "stdin is not UTF-8 text")
        try assertFails("echo hi | \"$PB\" copy --osc52 -t image/png", status: 2, saying: "-t image/png is not plain text")
        XCTAssertEqual(try server.bufferNames(), [])
    }

    func testAPasteReadsTmuxsAnswerFromItsNewestBuffer() throws {
        try server.run("set-buffer", "from tmux's buffer ✓")
        let output = sandbox.path("pasted")
        let result = try runInWindow("\"$PB\" paste --osc52 > '\(output)'")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), "from tmux's buffer ✓")
        let file = sandbox.path("pasted-with-o")
        let withOutput = try runInWindow("\"$PB\" paste --osc52 -o '\(file)'")
        XCTAssertEqual(withOutput.status, 0, withOutput.stderr)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "from tmux's buffer ✓")
    }

    func testAnAnswerOverTheLimitIsRefusedWithNothingWritten() throws {
        // 80,000 bytes are 106,668 of Base64: over the 100,000-byte default, within a raised limit.
        let text = String(repeating: "0123456789abcdef", count: 5_000)
        try server.run("load-buffer", try write(text, to: "large"))
        let output = sandbox.path("pasted")
        try assertFails("\"$PB\" paste --osc52 -o '\(output)'", status: 1,
                        saying: "the terminal's answer is longer than 100000 bytes; PASTEBOARD_OSC52_LIMIT raises the limit")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        let raised = try runInWindow("PASTEBOARD_OSC52_LIMIT=200000 \"$PB\" paste --osc52 -o '\(output)'")
        XCTAssertEqual(raised.status, 0, raised.stderr)
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), text)
    }

    func testATmuxThatIgnoresTheQueryEndsTheWaitWithNothingWritten() throws {
        try server.run("set", "-g", "set-clipboard", "external")
        try server.run("set-buffer", "never answered")
        let output = sandbox.path("never")
        let modes = sandbox.path("modes")
        let result = try runInWindow("""
            stty -g > '\(modes)'
            PASTEBOARD_OSC52_TIMEOUT=0.2 "$PB" paste --osc52 -o '\(output)'
            status=$?
            stty -g >> '\(modes)'
            return $status
            """)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("did not answer the OSC 52 query within 0.2 seconds"), result.stderr)
        XCTAssertTrue(result.stderr.contains("set -g set-clipboard on"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        let lines = try String(contentsOfFile: modes, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines.first, lines.last, "the terminal's mode is as it was")
    }

    func testSIGTERMDuringTheWaitRestoresTheTerminal() throws {
        try server.run("set", "-g", "set-clipboard", "off")
        let modes = sandbox.path("modes"), pid = sandbox.path("pid")
        scripts += 1
        let script = try TerminalScript("window-\(scripts)", """
            stty -g > '\(modes)'
            PASTEBOARD_OSC52_TIMEOUT=300 '\(pbPath)' paste --osc52 > /dev/null &
            echo $! > '\(pid).partial' && mv '\(pid).partial' '\(pid)'
            wait $!
            status=$?
            stty -g >> '\(modes)'
            return $status
            """, in: sandbox)
        try server.run("new-window", "-d", "-t", "test:9", script.command)
        let tty = try server.run("display-message", "-p", "-t", "test:9", "#{pane_tty}").stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(eventually { FileManager.default.fileExists(atPath: pid) && (try? String(contentsOfFile: modes, encoding: .utf8)) != nil })
        let before = try String(contentsOfFile: modes, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        // pb is waiting once the terminal's mode has changed to raw.
        XCTAssertTrue(eventually { (try? runTool("/usr/bin/stty", ["-F", tty, "-g"], environment: sandbox.environment(), in: sandbox))
            .map { $0.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) != before } ?? false }, "pb never set raw mode on \(tty)")
        let process = try XCTUnwrap(Int32(String(contentsOfFile: pid, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(process, SIGTERM)
        XCTAssertEqual(script.waitForStatus(), 130, script.stderr)
        let lines = try String(contentsOfFile: modes, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines.first, lines.last, "the terminal's mode is as it was")
    }

    func testFallbackUsesTmuxOnlyWhenNoDaemonReaches() throws {
        // No daemon runs and none may start (the sandbox sets PASTEBOARD_NO_AUTOSTART).
        let fallback = try runInWindow("echo 'no daemon here' | PASTEBOARD_OSC52=fallback \"$PB\" copy")
        XCTAssertEqual(fallback.status, 0, fallback.stderr)
        XCTAssertEqual(fallback.stderr, "pb: nothing listens and pasteboardd cannot be started: used the terminal's clipboard (OSC 52, PASTEBOARD_OSC52=fallback)\n")
        XCTAssertEqual(try newestBuffer(), "no daemon here\n")
        let pasted = sandbox.path("pasted")
        let paste = try runInWindow("PASTEBOARD_OSC52=fallback \"$PB\" paste > '\(pasted)'")
        XCTAssertEqual(paste.status, 0, paste.stderr)
        XCTAssertEqual(try String(contentsOfFile: pasted, encoding: .utf8), "no daemon here\n")
        // A fallback that fails too is a daemon out of reach, saying why OSC 52 failed.
        try assertFails("printf '\\377' | PASTEBOARD_OSC52=fallback \"$PB\" copy", status: 3,
                        saying: "cannot be started, and OSC 52 (PASTEBOARD_OSC52=fallback) failed: OSC 52 carries text only: stdin is not UTF-8 text")
        // One OSC 52 cannot carry (a name it has no selection for) goes to the daemon, as without the setting.
        try assertFails("echo hi | PASTEBOARD_OSC52=fallback \"$PB\" copy -p work", status: 3, saying: "cannot reach pasteboardd")
        // Unset, the same copy fails as before: no daemon reachable.
        let never = try runInWindow("echo 'not sent' | \"$PB\" copy")
        XCTAssertEqual(never.status, 3, never.stderr)
        XCTAssertEqual(try server.bufferNames().count, 1)
        // With a daemon, the daemon has the copy and the terminal nothing.
        try startDaemon()
        let daemon = try runInWindow("echo 'to the daemon' | PASTEBOARD_OSC52=fallback \"$PB\" copy")
        XCTAssertEqual(daemon.status, 0, daemon.stderr)
        XCTAssertEqual(daemon.stderr, "")
        XCTAssertEqual(try pbOK("paste").stdoutText, "to the daemon\n")
        XCTAssertEqual(try server.bufferNames().count, 1)
    }

    func testTheExplicitOptionNeverTouchesTheDaemon() throws {
        try startDaemon()
        try pbOK("copy", stdin: Data("the daemon's".utf8))
        let result = try runInWindow("echo 'the terminal'\"'\"'s' | \"$PB\" copy --osc52")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try newestBuffer(), "the terminal's\n")
        XCTAssertEqual(try pbOK("paste").stdoutText, "the daemon's")
    }

    func testNamesWithoutASelectionAndBadSettingsAreUsageErrors() throws {
        try assertFails("echo hi | \"$PB\" copy --osc52 -p work", status: 2, saying: "-p general or -p primary, not 'work'")
        try assertFails("echo hi | PASTEBOARD_OSC52=sometimes \"$PB\" copy", status: 2,
                        saying: "PASTEBOARD_OSC52 must be never, fallback or always, not 'sometimes'")
        try assertFails("echo hi | PASTEBOARD_OSC52_LIMIT=10 \"$PB\" copy --osc52", status: 2,
                        saying: "PASTEBOARD_OSC52_LIMIT must be a count of bytes from 1024 to 67108864, not '10'")
        try assertFails("PASTEBOARD_OSC52_TIMEOUT=0 \"$PB\" paste --osc52", status: 2,
                        saying: "PASTEBOARD_OSC52_TIMEOUT must be more than 0 and at most 300 seconds, not '0'")
        try assertFails("\"$PB\" paste --osc52 --item 1", status: 2, saying: "--osc52 reads the terminal's one text: it does not take --item")
        try assertFails("echo hi | PASTEBOARD_OSC52=always \"$PB\" copy --sensitive", status: 2,
                        saying: "--osc52 does not take --sensitive: a terminal's clipboard keeps no secret (PASTEBOARD_OSC52=always)")
        XCTAssertEqual(try server.bufferNames(), [])
    }
}

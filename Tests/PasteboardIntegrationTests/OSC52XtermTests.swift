import Foundation
import TestSupport
import XCTest

/// `pb copy --osc52` and `pb paste --osc52` in a real xterm on an Xvfb of the test's own, xclip
/// on the other side: a copy with xterm's `allowWindowOps` becomes the display's CLIPBOARD, a
/// paste reads xterm's answer with xclip's text, and an xterm left at its default (no window
/// operations) ignores the query, so the paste ends at its bounded wait with nothing written.
final class OSC52XtermTests: IntegrationTestCase {
    /// No daemon: OSC 52 never touches it.
    override class var startsDaemonInSetUp: Bool { false }

    private var xterm = ""
    private var xvfb: XvfbServer!
    private var scripts = 0

    override func setUpWithError() throws {
        guard let xterm = executableInPath("xterm") else { throw XCTSkip("xterm is not installed (apt-get install xterm; .ci/run installs it)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xclip") else { throw XCTSkip("xclip is not installed (apt-get install xclip)") }
        self.xterm = xterm
        try super.setUpWithError()
        xvfb = try XvfbServer(sandbox: sandbox)
    }

    override func tearDown() {
        xvfb?.stop()
        xvfb = nil
        super.tearDown()
    }

    /// Starts an xterm on the test's display running `body` (`$PB` is pb), with the window
    /// operations OSC 52 needs unless `allowingWindowOps` is false (xterm's default); with
    /// `staysOpen` the xterm stays once `body` has ended, owning what it copied.
    private func startXterm(_ body: String, allowingWindowOps: Bool = true, staysOpen: Bool = false) throws -> TerminalScript {
        scripts += 1
        let script = try TerminalScript("xterm-\(scripts)", "PB='\(Binaries.url("pb").path)'\n" + body, staysOpen: staysOpen, in: sandbox)
        var environment = sandbox.environment()
        environment.removeValue(forKey: "DISPLAY")
        environment["TERM"] = "xterm"
        let resources = allowingWindowOps ? ["-xrm", "XTerm*allowWindowOps: true"] : []
        stopAtTearDown(try ToolProcess(xterm, ["-display", xvfb.display] + resources + ["-e", "/bin/sh", script.path], environment: environment, in: sandbox))
        return script
    }

    /// What `selection` of the test's display holds, as `xclip -o` reads it.
    private func clipboard(_ selection: String = "clipboard") throws -> String {
        var environment = sandbox.environment()
        environment.removeValue(forKey: "DISPLAY")
        return try runTool("/usr/bin/xclip", ["-display", xvfb.display, "-selection", selection, "-o"], environment: environment, in: sandbox).stdoutText
    }

    func testACopyBecomesTheDisplaysClipboard() throws {
        let file = sandbox.path("text")
        try Data("from pb through xterm ✓\nsecond line".utf8).write(to: URL(fileURLWithPath: file))
        let script = try startXterm("\"$PB\" copy --osc52 < '\(file)'", staysOpen: true)
        XCTAssertEqual(script.waitForStatus(), 0, script.stderr)
        XCTAssertTrue(eventually { (try? self.clipboard()) == "from pb through xterm ✓\nsecond line" }, "clipboard: \((try? clipboard()) ?? "")")
    }

    func testACopyToPrimaryBecomesTheDisplaysPrimarySelection() throws {
        let script = try startXterm("printf 'the primary one' | \"$PB\" copy --osc52 -p primary", staysOpen: true)
        XCTAssertEqual(script.waitForStatus(), 0, script.stderr)
        XCTAssertTrue(eventually { (try? self.clipboard("primary")) == "the primary one" }, "primary: \((try? clipboard("primary")) ?? "")")
    }

    func testAPasteReadsXtermsAnswerWithTheClipboardsText() throws {
        stopAtTearDown(try xvfb.startXclip(text: "owned by xclip ✓", sandbox: sandbox))
        XCTAssertTrue(eventually { (try? self.clipboard()) == "owned by xclip ✓" }, "xclip never owned the clipboard")
        let output = sandbox.path("pasted")
        let script = try startXterm("\"$PB\" paste --osc52 -o '\(output)'")
        XCTAssertEqual(script.waitForStatus(), 0, script.stderr)
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), "owned by xclip ✓")
    }

    func testALargeAnswerArrivesWhole() throws {
        // 70,000 bytes: an answer of 93,336 bytes of Base64, read in many pieces.
        let text = (0..<7_000).map { String(format: "%9d\n", $0) }.joined()
        stopAtTearDown(try xvfb.startXclip(text: text, sandbox: sandbox))
        XCTAssertTrue(eventually { (try? self.clipboard()) == text }, "xclip never owned the clipboard")
        let output = sandbox.path("pasted")
        let script = try startXterm("\"$PB\" paste --osc52 > '\(output)'")
        XCTAssertEqual(script.waitForStatus(), 0, script.stderr)
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), text)
    }

    func testAnXtermWithoutWindowOpsLeavesThePasteToItsBoundedWait() throws {
        stopAtTearDown(try xvfb.startXclip(text: "not to be read", sandbox: sandbox))
        let output = sandbox.path("pasted")
        let script = try startXterm("PASTEBOARD_OSC52_TIMEOUT=0.5 \"$PB\" paste --osc52 > '\(output)'", allowingWindowOps: false)
        XCTAssertEqual(script.waitForStatus(), 1, script.stderr)
        XCTAssertTrue(script.stderr.contains("did not answer the OSC 52 query within 0.5 seconds"), script.stderr)
        XCTAssertTrue(script.stderr.contains("allowWindowOps"), script.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: output)), Data(), "nothing written")
    }
}

import Foundation
import TestSupport
import XCTest

/// The README's tmux lines (`copy-command 'pb copy'` and a prefix `]` that pastes the
/// pasteboard), read from the README into a real tmux server of the test's own: a copy in copy
/// mode reaches `pb paste`, and prefix `]` typed in an attached client pastes what `pb copy`
/// copied into the pane.
final class TmuxClipboardTests: IntegrationTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    private var tmux = ""
    private var configuration = ""
    private var server: TmuxServer?
    private var client: TmuxClient?

    /// The README's block this test runs.
    private static func readmeBlock() throws -> String {
        try ReadmeCodeBlock.text(language: "tmux", inSection: "## Editors and tmux")
    }

    override func setUpWithError() throws {
        guard let tmux = executableInPath("tmux") else { throw XCTSkip("tmux is not installed (apt-get install tmux; .ci/run installs it)") }
        self.tmux = tmux
        try super.setUpWithError()
        configuration = sandbox.path("tmux.conf")
        try Self.readmeBlock().write(toFile: configuration, atomically: true, encoding: .utf8)
    }

    override func tearDown() {
        server?.killServer()
        client?.stop()
        server = nil
        client = nil
        super.tearDown()
    }

    /// Starts the test's tmux server, its pane running `command`.
    private func startServer(running command: String) throws -> TmuxServer {
        let server = try TmuxServer(tmux: tmux, configuration: configuration, command: command, in: sandbox)
        self.server = server
        return server
    }

    /// Attaches a client on a pseudo-terminal and waits until the server counts it.
    private func attachClient(to server: TmuxServer) throws -> TmuxClient {
        guard let script = executableInPath("script") else { throw XCTSkip("script (util-linux) is not installed: it gives the tmux client its terminal") }
        let client = try TmuxClient(script: script, server: server)
        self.client = client
        XCTAssertTrue(eventually { (try? server.clientCount()) == 1 }, "the client never attached")
        return client
    }

    func testACopyInCopyModeGoesThroughCopyCommandToThePasteboard() throws {
        let server = try startServer(running: "printf 'alpha beta gamma\\n'; exec cat")
        XCTAssertTrue(eventually { (try? server.pane())?.contains("alpha beta gamma") == true }, "the pane never showed its text")
        try server.run("copy-mode", "-t", "test")
        for command in ["history-top", "start-of-line", "begin-selection", "end-of-line", "copy-pipe-and-cancel"] {
            try server.run("send-keys", "-t", "test", "-X", command)
        }
        XCTAssertTrue(eventually { (try? self.pb("paste"))?.stdoutText == "alpha beta gamma" },
                      "pb paste: \((try? pb("paste"))?.stderr ?? "")")
        XCTAssertEqual(try representations(), ["public.utf8-plain-text"])
        XCTAssertEqual(try server.bufferNames().count, 1, "the copy also stays a tmux buffer")
    }

    func testPrefixBracketPastesThePasteboardIntoThePane() throws {
        try pbOK("copy", stdin: Data("pasted from pb".utf8))
        let server = try startServer(running: "exec cat")
        let client = try attachClient(to: server)
        client.type("\u{02}]")
        XCTAssertTrue(eventually { (try? server.pane())?.contains("pasted from pb") == true }, "pane: \((try? server.pane()) ?? "")")
        XCTAssertEqual(try server.bufferNames(), [], "the buffer the paste went through is deleted")
    }

    func testPrefixBracketOnAnEmptyPasteboardPastesNoOlderBuffer() throws {
        let server = try startServer(running: "exec cat")
        try server.run("set-buffer", "an older tmux buffer")
        let client = try attachClient(to: server)
        client.type("\u{02}]")
        // run-shell shows the failed command's message in view mode once the command has ended,
        // so by then a paste would have happened.
        XCTAssertTrue(eventually { (try? server.paneIsInMode()) == true }, "tmux never showed pb's failure")
        XCTAssertFalse(try server.pane().contains("an older tmux buffer"))
        try server.run("send-keys", "-t", "test", "-X", "cancel")
        try pbOK("copy", stdin: Data("then the pasteboard's text".utf8))
        client.type("\u{02}]")
        XCTAssertTrue(eventually { (try? server.pane())?.contains("then the pasteboard's text") == true }, "pane: \((try? server.pane()) ?? "")")
        XCTAssertFalse(try server.pane().contains("an older tmux buffer"))
    }

    func testPb1ShowsTheReadmesConfiguration() throws {
        XCTAssertTrue(try ManPage("pb.1").examples(inSection: "EXAMPLES").contains(Self.readmeBlock()),
                      "pb.1's EXAMPLES shows the README's tmux lines as they are")
    }
}

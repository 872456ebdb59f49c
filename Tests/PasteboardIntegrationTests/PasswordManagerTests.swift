import TestSupport
import Foundation
import XCTest

/// Debian's `pass -c`, through pb's drop-in names, leaves no trace of the password (issue 39,
/// item 2). pass copies with plain `xclip -selection clipboard` (on X11) or `wl-copy` (on
/// Wayland), waits PASSWORD_STORE_CLIP_TIME, then copies back what the clipboard held before;
/// nothing marks the password secret. The daemon's rule for transient copies (pasteboardd(8),
/// `history-transient-seconds`) takes it out of `pb history` and off the disk (the journal,
/// `history/`, the stored files) once pass puts the old content back, across a restart too.
///
/// Each test runs the daemon with its desktop bridge on a display of the test's own (Xvfb, or
/// a headless sway), so the password and the restored content also reach the desktop's
/// clipboard, checked with the real xclip and wl-paste. pass's wait is ended by its own means
/// (SIGTERM to its sleeping process, as a second `pass -c` ends it), then the test waits for
/// the process that restores the clipboard to exit: an event, not a timing.
final class PasswordManagerTests: IntegrationTestCase {
    private let password = "S3cret-Pa55word-of-the-test"
    private var store: PasswordStore?
    private var xserver: XvfbServer?
    private var sway: HeadlessSway?

    override func tearDown() {
        store?.stopAgent(sandbox: sandbox)
        daemon?.stop()
        xserver?.stop()
        sway?.stop()
        super.tearDown()
    }

    /// An image (stored in `data/`, not in the journal: over 64 KiB) on the clipboard; `pass -c`;
    /// the daemon restarted while pass waits (the password is then in its files); pass puts the
    /// image back: the password is in no file and not in the history, and stays so across
    /// another restart; the clipboard holds the image, in pb and on the X display.
    func testPassOnX11LeavesNoTraceOfThePasswordAcrossARestart() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xclip") else { throw XCTSkip("xclip is not installed") }
        let server = try XvfbServer(sandbox: sandbox)
        xserver = server
        let display = ["DISPLAY": server.display]
        try restartDaemon(display: display)
        let image = PNGFixture.make(width: 160, height: 160)
        let imagePath = sandbox.path("before.png")
        try image.write(to: URL(fileURLWithPath: imagePath))
        try pbOK("copy", imagePath)
        let store = try PasswordStore(in: sandbox, password: password)
        self.store = store

        try copyWithPass(store, display: display)
        XCTAssertTrue(eventually { self.desktopClipboard(server, type: "UTF8_STRING") == Data(self.password.utf8) }, "the password never reached the X clipboard")
        try restartDaemon(display: display)
        XCTAssertTrue(try stateFilesContain(password), "the copy was not durable before pass restored the clipboard")
        try letPassRestore(store)

        XCTAssertTrue(try pastedEquals(imagePath), "pass did not put the image back")
        XCTAssertTrue(eventually { self.desktopClipboard(server, type: "image/png") == image }, "the X clipboard does not hold the image again")
        try assertNoTraceOfThePassword()
        try restartDaemon(display: display)
        try assertNoTraceOfThePassword()
        XCTAssertTrue(try pastedEquals(imagePath))
    }

    /// Text on the clipboard, `pass -c` with wl-copy, pass puts the text back: no trace, also
    /// after a restart; then from an empty clipboard, which pass "restores" as empty text, with
    /// ordinary copies before it kept in the history.
    func testPassOnWaylandLeavesNoTraceOfThePassword() throws {
        let compositor = try HeadlessSway()
        sway = compositor
        let display = ["WAYLAND_DISPLAY": compositor.socketName, "XDG_RUNTIME_DIR": compositor.runtimeDirectory]
        try restartDaemon(display: display)
        try pbOK("copy", stdin: Data("kept before the password\n".utf8))
        let store = try PasswordStore(in: sandbox, password: password)
        self.store = store
        let passDisplay = ["WAYLAND_DISPLAY": compositor.socketPath]

        try copyWithPass(store, display: passDisplay)
        XCTAssertTrue(eventually { (try? compositor.pasteWaiting(["-n"]).output) == Array(self.password.utf8) }, "the password never reached the Wayland clipboard")
        try letPassRestore(store)
        XCTAssertEqual(try pbOK("paste").stdoutText, "kept before the password\n")
        XCTAssertTrue(eventually { (try? compositor.pasteWaiting(["-n"]).output) == Array("kept before the password\n".utf8) })
        try assertNoTraceOfThePassword()
        try restartDaemon(display: display)
        try assertNoTraceOfThePassword()

        // Ordinary copies stay; one cleared soon after it was made leaves, as a timed clear's
        // secret does; pass from an empty clipboard puts back an empty text.
        try pbOK("copy", stdin: Data("an ordinary copy".utf8))
        try pbOK("copy", stdin: Data("cleared at once".utf8))
        try pbOK("clear")
        try copyWithPass(store, display: passDisplay)
        try letPassRestore(store)
        XCTAssertEqual(try pbOK("paste").stdoutText, "", "pass puts back an empty text")
        try assertNoTraceOfThePassword()
        let history = try pbOK("history").stdoutText
        XCTAssertTrue(history.contains("an ordinary copy"), history)
        XCTAssertFalse(history.contains("cleared at once"), history)
    }

    // MARK: - Steps

    /// Starts the daemon again (first: stops the one `IntegrationTestCase` started) with
    /// `display` in its environment, and waits until its bridge serves it.
    private func restartDaemon(display: [String: String]) throws {
        daemon.stop()
        daemon = try DaemonProcess.started(in: sandbox, display: display)
        XCTAssertTrue(eventually(timeout: 15) { (try? self.pb("bridge", "--json").status) == 0 }, "no bridge; daemon log:\n\(daemon.log)")
    }

    /// Runs `pass -c` with the drop-in names first in PATH and `display` set, as a desktop
    /// session runs it; the password is then pb's clipboard.
    private func copyWithPass(_ store: PasswordStore, display: [String: String]) throws {
        var environment = store.environment(sandbox.environment(), clipSeconds: 45).merging(display) { $1 }
        environment["PATH"] = try installedLinks() + ":/usr/bin:/bin"
        // Through a shell that closes what pass's background process would keep open (and the
        // test wait for, see `ShellPrelude`).
        let copied = try runTool("/bin/bash", ["-c", ShellPrelude.closingInheritedDescriptors + "exec /usr/bin/pass -c \"$0\"", store.entry],
                                 environment: environment, in: sandbox)
        XCTAssertEqual(copied.status, 0, copied.stderr)
        XCTAssertTrue(copied.stdoutText.hasPrefix("Copied \(store.entry) to clipboard."), copied.stdoutText)
        let listed = try pbOK("list").stdoutText
        XCTAssertEqual(try pbOK("paste").stdoutText, password, "pb list: \(listed)\ndaemon: \(daemon.log)")
    }

    /// Ends pass's wait (SIGTERM to its sleeping process, as pass itself does) and waits until
    /// the process that puts the clipboard back has exited: by then its copy is acknowledged.
    private func letPassRestore(_ store: PasswordStore) throws {
        var sleeper: pid_t?
        XCTAssertTrue(eventually { sleeper = store.sleeper(); return sleeper != nil }, "pass is not waiting to restore the clipboard")
        let waiting = try XCTUnwrap(sleeper)
        let restorer = try XCTUnwrap(ProcessTree.parent(of: waiting))
        kill(waiting, SIGTERM)
        XCTAssertTrue(eventually(timeout: 30) { ProcessTree.hasEnded(restorer) }, "pass never put the clipboard back")
    }

    /// The password is neither in `pb history` (nor found by its search) nor in any file of
    /// the state directory: the journal, the archives, `history/`, `data/`.
    private func assertNoTraceOfThePassword(file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertFalse(try pbOK("history").stdoutText.contains(password), "pb history shows the password", file: file, line: line)
        XCTAssertEqual(try pb("history", "search", password).stdoutText, "", "pb history search finds the password", file: file, line: line)
        let files = stateFiles()
        XCTAssertFalse(try stateFilesContain(password), "a file of the state directory holds the password: \(files)", file: file, line: line)
    }

    private func stateFiles() -> [String] {
        FileManager.default.subpaths(atPath: sandbox.stateDirectory) ?? []
    }

    /// What the X display's clipboard holds as `type`, read with the real xclip.
    private func desktopClipboard(_ server: XvfbServer, type: String) -> Data? {
        var environment = sandbox.environment()
        environment["DISPLAY"] = server.display
        guard let result = try? runTool("/usr/bin/xclip", ["-o", "-selection", "clipboard", "-t", type], environment: environment, in: sandbox),
              result.status == 0 else { return nil }
        return result.stdout
    }
}

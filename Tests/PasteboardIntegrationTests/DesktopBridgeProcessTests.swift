import Foundation
import TestSupport
import XCTest

/// The bridge as users get it: pasteboardd with a display in its environment starts
/// `pasteboard-bridge` by itself, `pb bridge` shows it, desktop copies reach `pb paste`, and it
/// survives the X server restarting. Each test has its own Xvfb (with a cookie, as a desktop
/// session's X server has) and xclip as the desktop application.
final class DesktopBridgeProcessTests: IntegrationTestCase {
    var server: XvfbServer?
    var peers: [ToolProcess] = []
    private let cookie = "0123456789abcdef0123456789abcdef"

    /// The daemon is started by each test, with the display in its environment.
    override class var startsDaemonInSetUp: Bool { false }

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xclip") else { throw XCTSkip("xclip is not installed (apt-get install xclip)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xauth") else { throw XCTSkip("xauth is not installed (apt-get install xauth)") }
    }

    override func tearDown() {
        for peer in peers { peer.stop() }
        peers = []
        server?.stop()
        super.tearDown()
    }

    var authorityFile: String { sandbox.path("Xauthority") }

    /// Starts an X server with this test's cookie (on `displayNumber` when given).
    func startServer(displayNumber: Int? = nil) throws -> XvfbServer {
        let server = try XvfbServer(sandbox: sandbox, authorityFile: authorityFile, cookie: cookie, displayNumber: displayNumber)
        self.server = server
        return server
    }

    /// What the daemon and the peers get to find the display: `DISPLAY` and `XAUTHORITY`.
    func displayEnvironment(_ server: XvfbServer) -> [String: String] {
        ["DISPLAY": server.display, "XAUTHORITY": authorityFile]
    }

    /// Starts the daemon with `server`'s display and waits until its bridge serves it.
    func startDaemon(with server: XvfbServer, arguments: [String] = []) throws {
        daemon = try DaemonProcess.started(in: sandbox, arguments: arguments, display: displayEnvironment(server))
        // Running (its lock held) and its status written: the lock is taken before the first
        // status, and a test reading the bridge's pid right after this must find it.
        XCTAssertTrue(eventually(timeout: 15) { (try? self.bridgeReport())?.status == 0 && self.currentBridgePID() != nil },
                      "no bridge: \(String(describing: try? bridgeReport())); daemon log:\n\(daemon.log)")
    }

    /// `pb bridge --json`, parsed.
    func bridgeReport() throws -> (status: Int32, json: [String: Any]) {
        let result = try pb("bridge", "--json")
        let json = (try? JSONSerialization.jsonObject(with: result.stdout)) as? [String: Any] ?? [:]
        return (result.status, json)
    }

    /// Starts `xclip -i` owning `selection` with `text` (xclip stays to serve it).
    func copyWithXclip(_ text: String, selection: String = "clipboard", server: XvfbServer) throws -> ToolProcess {
        let peer = try server.startXclip(text: text, selection: selection, environment: sandbox.environment().merging(displayEnvironment(server)) { $1 }, sandbox: sandbox)
        peers.append(peer)
        return peer
    }

    func pasted(_ arguments: String...) -> String? {
        guard let result = try? runTool("pb", ["paste"] + arguments, environment: sandbox.environment(), in: sandbox), result.status == 0 else { return nil }
        return result.stdoutText
    }

    func testTheDaemonStartsTheBridgeForItsDisplayAndADesktopCopyPastes() throws {
        let server = try startServer()
        try startDaemon(with: server)
        let report = try bridgeReport()
        let status = try XCTUnwrap(report.json["status"] as? [String: Any])
        XCTAssertEqual(status["protocol"] as? String, "x11")
        XCTAssertEqual(status["display"] as? String, server.display)
        XCTAssertEqual(report.json["running"] as? Bool, true)

        _ = try copyWithXclip("copied in a desktop app", server: server)
        XCTAssertTrue(eventually(timeout: 10) { self.pasted() == "copied in a desktop app" }, "pb paste gave \(String(describing: pasted())); log:\n\(daemon.log)")
        let text = try pbOK("bridge").stdoutText
        XCTAssertTrue(text.contains("clipboard ⇄ general: owned by a desktop application"), text)
        XCTAssertTrue(text.contains("through x11"), text)
    }

    func testADesktopCopyIsInHistoryAndTheSameContentTakenOverIsNoNewChange() throws {
        let server = try startServer()
        try startDaemon(with: server)
        let application = try copyWithXclip("copied once", server: server)
        XCTAssertTrue(eventually(timeout: 10) { self.pasted() == "copied once" }, "log:\n\(daemon.log)")
        let changeCount = try pbOK("list").stdoutText
        XCTAssertTrue(try pbOK("history").stdoutText.contains("copied once"), "history records a desktop copy like any other")

        // The application quits and a clipboard manager takes the selection with the same content.
        application.stop()
        let manager = try copyWithXclip("copied once", server: server)
        _ = manager
        XCTAssertTrue(daemon.waitForLog("the same content as the last copy"), "log:\n\(daemon.log)")
        XCTAssertEqual(try pbOK("list").stdoutText, changeCount, "the same content again made a new change")
        XCTAssertEqual(try pbOK("history").stdoutText.components(separatedBy: "copied once").count, 2, "one history entry")

        // New content from the same manager is a new copy.
        _ = try copyWithXclip("copied twice", server: server)
        XCTAssertTrue(eventually(timeout: 10) { self.pasted() == "copied twice" })
    }

    func testAnImageHandedOverAtExitStillPastesInPbAndInOtherApplications() throws {
        let server = try startServer()
        try startDaemon(with: server)
        let png = PNGFixture.make(width: 64, height: 48, seed: 5)
        let application = try X11OwnerPeer(
            display: server.display, targets: [("image/png", png), ("UTF8_STRING", Data("the caption".utf8))],
            authority: authorityFile, sandbox: sandbox)
        XCTAssertTrue(eventually(timeout: 10) { self.pasted("-t", "text") == "the caption" }, "log:\n\(daemon.log)")
        XCTAssertEqual(application.quit(), 0, "the application got no positive answer from the bridge's clipboard manager: \(application.process.stderrLines); log:\n\(daemon.log)")
        XCTAssertEqual(try pbOK("paste", "-t", "public.png").stdout, png)
        // The application is gone; the bridge offers what it handed over to the next application.
        let reader = sandbox.environment().merging(displayEnvironment(server)) { $1 }
        var image = Data()
        XCTAssertTrue(eventually(timeout: 10) {
            image = (try? runTool("/usr/bin/xclip", ["-selection", "clipboard", "-o", "-t", "image/png"], environment: reader, in: self.sandbox))?.stdout ?? Data()
            return image == png
        }, "xclip -o -t image/png gave \(image.count) bytes; log:\n\(daemon.log)")
    }

    func testXselCopiesReachPbAndPbCopiesReachXsel() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xsel") else { throw XCTSkip("xsel is not installed (apt-get install xsel)") }
        let server = try startServer()
        try startDaemon(with: server)
        let environment = sandbox.environment().merging(displayEnvironment(server)) { $1 }
        let input = sandbox.path("xsel-input")
        try Data("copied with xsel".utf8).write(to: URL(fileURLWithPath: input))
        let copier = try ToolProcess("/bin/sh", ["-c", "exec /usr/bin/xsel --clipboard --input --nodetach < \"$0\"", input], environment: environment, in: sandbox)
        peers.append(copier)
        XCTAssertTrue(eventually(timeout: 10) { self.pasted() == "copied with xsel" }, "log:\n\(daemon.log)")
        XCTAssertTrue(try pbOK("list").stdoutText.contains("public.utf8-plain-text"))

        try pbOK("copy", stdin: Data("copied with pb".utf8))
        var text = ""
        XCTAssertTrue(eventually(timeout: 10) {
            text = (try? runTool("/usr/bin/xsel", ["--clipboard", "--output"], environment: environment, in: self.sandbox))?.stdoutText ?? ""
            return text == "copied with pb"
        }, "xsel -b -o gave \(text)")
    }

    func testTheBridgeConnectsAgainWhenTheXServerRestarts() throws {
        let first = try startServer()
        try startDaemon(with: first)
        _ = try copyWithXclip("before the restart", server: first)
        XCTAssertTrue(eventually(timeout: 10) { self.pasted() == "before the restart" })
        let number = first.displayNumber
        for peer in peers { peer.stop() }
        peers = []
        first.stop()
        XCTAssertTrue(eventually(timeout: 10) { ((try? self.bridgeReport())?.json["status"] as? [String: Any])?["state"] as? String == "waiting" },
                      "the bridge did not notice the X server going: \(String(describing: try? bridgeReport()))")
        // What was copied stays on the pasteboard while the display is gone.
        XCTAssertEqual(pasted(), "before the restart")

        let second = try startServer(displayNumber: number)
        XCTAssertTrue(eventually(timeout: 20) { ((try? self.bridgeReport())?.json["status"] as? [String: Any])?["state"] as? String == "bridging" },
                      "the bridge did not come back: \(String(describing: try? bridgeReport())); log:\n\(daemon.log)")
        _ = try copyWithXclip("after the restart", server: second)
        // Seen once in a loaded full run: the import was logged but no paste gave it within 10 s;
        // what the last paste said is kept for the failure message.
        var last: ProcessResult?
        XCTAssertTrue(eventually(timeout: 10) {
            last = try? runTool("pb", ["paste"], environment: self.sandbox.environment(), in: self.sandbox)
            return last?.status == 0 && last?.stdoutText == "after the restart"
        }, "the last pb paste: status \(String(describing: last?.status)), stdout '\(last?.stdoutText ?? "")', stderr '\(last?.stderr ?? "")'; bridge: \(String(describing: try? bridgeReport().json)); log:\n\(daemon.log)")
    }

    func testTheBridgeOffersACopyAgainWhenTheApplicationThatMadeItExits() throws {
        let server = try startServer()
        try startDaemon(with: server)
        let xclip = try copyWithXclip("outlives xclip", server: server)
        XCTAssertTrue(eventually(timeout: 10) { self.pasted() == "outlives xclip" }, "log:\n\(daemon.log)")
        let changes = try pbOK("history").stdoutText
        xclip.stop()
        // Another X application (a new xclip) still pastes it: the bridge took the selection over.
        let environment = sandbox.environment().merging(displayEnvironment(server)) { $1 }
        func xclipPasted() -> String? {
            guard let result = try? runTool("/usr/bin/xclip", ["-selection", "clipboard", "-o"], environment: environment, in: sandbox), result.status == 0 else { return nil }
            return result.stdoutText
        }
        XCTAssertTrue(eventually(timeout: 10) { xclipPasted() == "outlives xclip" }, "xclip -o gave \(String(describing: xclipPasted())); log:\n\(daemon.log)")
        XCTAssertTrue(eventually(timeout: 10) { (try? self.pbOK("bridge").stdoutText)?.contains("clipboard ⇄ general: owned by the pasteboard") == true },
                      (try? pbOK("bridge").stdoutText) ?? "")
        // The same content: no new change, no second history entry.
        XCTAssertEqual(try pbOK("history").stdoutText, changes)
        XCTAssertEqual(pasted(), "outlives xclip")
    }

    func testNoBridgeTurnsItOffAndSaysSo() throws {
        let server = try startServer()
        daemon = try DaemonProcess.started(in: sandbox, arguments: ["--no-bridge"], display: displayEnvironment(server))
        XCTAssertTrue(eventually(timeout: 5) { (try? self.pb("bridge"))?.stdoutText.contains("turned off") == true })
        let result = try pb("bridge")
        XCTAssertEqual(result.status, 1, result.stdoutText)
        XCTAssertEqual(result.stdoutText, "no desktop bridge: turned off (no-bridge)\n")
        _ = try copyWithXclip("not for us", server: server)
        // The desktop has the copy (xclip serves it) and no bridge brought it to the pasteboard.
        let reader = sandbox.environment().merging(displayEnvironment(server)) { $1 }
        XCTAssertTrue(eventually(timeout: 10) {
            (try? runTool("/usr/bin/xclip", ["-selection", "clipboard", "-o"], environment: reader, in: self.sandbox))?.stdoutText == "not for us"
        }, "xclip never owned the clipboard")
        XCTAssertNotEqual(pasted(), "not for us")
    }

    func testADaemonWithoutADisplayHasNoBridgeAndSaysWhy() throws {
        daemon = try DaemonProcess.started(in: sandbox)
        XCTAssertTrue(eventually(timeout: 5) { (try? self.pb("bridge"))?.stdoutText.contains("no display") == true })
        XCTAssertEqual(try pb("bridge").status, 1)
        // The daemon runs on as ever.
        try pbOK("copy", stdin: Data("still works".utf8))
        XCTAssertEqual(pasted(), "still works")
    }

    func testThePrimarySelectionIsOnThePrimaryPasteboardInMemoryOnly() throws {
        let server = try startServer()
        try startDaemon(with: server)
        _ = try copyWithXclip("selected with the mouse", selection: "primary", server: server)
        XCTAssertTrue(eventually(timeout: 10) { self.pasted("--pasteboard", "primary") == "selected with the mouse" }, "log:\n\(daemon.log)")
        XCTAssertFalse(try stateFilesContain("selected with the mouse"), "primary reached the disk")
        XCTAssertFalse(try pbOK("history").stdoutText.contains("selected with the mouse"))
    }

    func testDurablePrimaryKeepsItOnDisk() throws {
        let server = try startServer()
        try startDaemon(with: server, arguments: ["--durable-primary"])
        _ = try copyWithXclip("kept selection", selection: "primary", server: server)
        XCTAssertTrue(eventually(timeout: 10) { self.pasted("--pasteboard", "primary") == "kept selection" }, "log:\n\(daemon.log)")
        XCTAssertTrue(eventually(timeout: 5) { (try? self.stateFilesContain("kept selection")) == true })
    }

    func testTheBridgeNeverOutlivesItsDaemonKilledWithSIGKILL() throws {
        let server = try startServer()
        // The kernel's PR_SET_PDEATHSIG followed the thread that spawned the bridge and was armed
        // only after exec: an orphan in about one run of five. A loop makes that visible.
        for round in 1...5 {
            try startDaemon(with: server)
            let pid = try bridgePID()
            daemon.kill9()
            XCTAssertTrue(eventually(timeout: 10) { kill(pid_t(pid), 0) != 0 }, "round \(round): the bridge \(pid) outlived a daemon killed with SIGKILL")
        }
    }

    /// A paste-once source stopped by SIGTERM clears the pasteboard, and the bridge gives the
    /// X clipboard up: a desktop paste that arrives meanwhile is refused, never left unanswered
    /// (issue 39, item 4; the second paste hung in most rounds). A real xclip pastes through the
    /// bridge right after the signal, under `timeout`, a bound that only a hang reaches.
    func testAPasteRightAfterAPasteOnceSourceIsStoppedIsAnsweredByTheBridge() throws {
        let server = try startServer()
        try startDaemon(with: server)
        let links = try installedLinks()
        var environment = sandbox.environment().merging(displayEnvironment(server)) { $1 }
        environment["PATH"] = links + ":/usr/bin:/bin"
        func paste() throws -> ProcessResult {
            try runTool("/usr/bin/timeout", ["20", "/usr/bin/xclip", "-o", "-selection", "clipboard"], environment: environment, in: sandbox)
        }
        for round in 1...10 {
            let copied = try runTool("/bin/bash", ["-c", ShellPrelude.closingInheritedDescriptors + "echo round \(round) | xclip -l 3 -selection clipboard"],
                                     environment: environment, in: sandbox)
            XCTAssertEqual(copied.status, 0, copied.stderr)
            let server = try XCTUnwrap(ProcessTree.processes(withArgument: "--serve-pastes-in-background", environment: "PASTEBOARD_SOCKET=\(sandbox.socketPath)").first)
            XCTAssertTrue(eventually(timeout: 10) { (try? paste().stdoutText) == "round \(round)\n" }, "round \(round): the copy never reached the X clipboard")
            kill(server, SIGTERM)
            for attempt in 1...2 {
                let result = try paste()
                XCTAssertNotEqual(result.status, 124, "round \(round), paste \(attempt) after SIGTERM was never answered; log:\n\(daemon.log)")
            }
            XCTAssertTrue(eventually { ProcessTree.hasEnded(server) })
        }
    }
}

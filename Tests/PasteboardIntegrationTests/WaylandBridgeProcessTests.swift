import TestSupport
import Foundation
import Pasteboard
import XCTest

/// The Wayland bridge as users get it: pasteboardd started in a Wayland session
/// (`WAYLAND_DISPLAY` relative to `XDG_RUNTIME_DIR`) starts `pasteboard-bridge` by itself, which
/// bridges through data-control both ways, comes back when the compositor restarts, and is the
/// only adapter when the session also has an X display (Xwayland's clipboard is the
/// compositor's to sync). Each test has its own headless sway, wl-copy / wl-paste as the desktop
/// applications, and (for the last) its own Xvfb and xclip.
final class WaylandBridgeProcessTests: IntegrationTestCase {
    private var sway: HeadlessSway?
    private var xserver: XvfbServer?

    /// The daemon is started by each test, with the display in its environment.
    override class var startsDaemonInSetUp: Bool { false }

    override func tearDown() {
        sway?.stop()
        xserver?.stop()
        super.tearDown()
    }

    /// Starts sway (skips without sway, wl-clipboard or setpriv).
    private func startSway() throws -> HeadlessSway {
        let sway = try HeadlessSway()
        self.sway = sway
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wl-paste") else { throw XCTSkip("wl-paste is not installed (.ci/run installs wl-clipboard)") }
        return sway
    }

    /// What a Wayland session gives the daemon: the socket's name and the runtime directory it is in.
    private func waylandEnvironment(_ sway: HeadlessSway) -> [String: String] {
        ["WAYLAND_DISPLAY": sway.socketName, "XDG_RUNTIME_DIR": sway.runtimeDirectory]
    }

    /// Starts the daemon with `display` in its environment and waits until its bridge bridges.
    private func startDaemon(display: [String: String]) throws {
        daemon = try DaemonProcess.started(in: sandbox, display: display)
        XCTAssertTrue(eventually(timeout: 15) { self.bridgeState() == "bridging" }, "no bridge: \(String(describing: try? bridgeStatus())); daemon log:\n\(daemon.log)")
    }

    /// The `status` object of `pb bridge --json`.
    private func bridgeStatus() throws -> [String: Any] {
        let result = try pb("bridge", "--json")
        let json = (try? JSONSerialization.jsonObject(with: result.stdout)) as? [String: Any] ?? [:]
        return json["status"] as? [String: Any] ?? [:]
    }

    private func bridgeState() -> String? {
        (try? bridgeStatus())?["state"] as? String
    }

    private func pasted(_ arguments: String...) -> String? {
        guard let result = try? runTool("pb", ["paste"] + arguments, environment: sandbox.environment(), in: sandbox), result.status == 0 else { return nil }
        return result.stdoutText
    }

    /// What wl-paste (a new process) gets from the selection, nil when it fails.
    private func wlPasted(_ sway: HeadlessSway, _ arguments: [String] = []) -> String? {
        guard let result = try? sway.pasteWaiting(["-n"] + arguments, seconds: 20), result.status == 0 else { return nil }
        return String(decoding: result.output, as: UTF8.self)
    }

    func testTheDaemonStartsTheBridgeThroughDataControlAndBothDirectionsWork() throws {
        let sway = try startSway()
        try startDaemon(display: waylandEnvironment(sway))
        let status = try bridgeStatus()
        XCTAssertEqual(status["protocol"] as? String, "zwlr-data-control-unstable-v1")
        XCTAssertEqual(status["display"] as? String, sway.socketPath)

        _ = try sway.copy(Array("copied in a Wayland app".utf8))
        XCTAssertTrue(eventually(timeout: 10) { self.pasted() == "copied in a Wayland app" }, "pb paste gave \(String(describing: pasted())); log:\n\(daemon.log)")
        let text = try pbOK("bridge").stdoutText
        XCTAssertTrue(text.contains("clipboard ⇄ general: owned by a desktop application"), text)

        try pbOK("copy", stdin: Data("copied with pb".utf8))
        XCTAssertTrue(eventually(timeout: 10) { self.wlPasted(sway) == "copied with pb" }, "wl-paste gave \(String(describing: wlPasted(sway))); log:\n\(daemon.log)")
    }

    func testTheBridgeOffersACopyAgainWhenTheApplicationThatMadeItExits() throws {
        let sway = try startSway()
        try startDaemon(display: waylandEnvironment(sway))
        let copier = try sway.copy(Array("outlives wl-copy".utf8))
        XCTAssertTrue(eventually(timeout: 10) { self.pasted() == "outlives wl-copy" }, "log:\n\(daemon.log)")
        let changes = try pbOK("history").stdoutText
        sway.kill(copier)
        // Another Wayland application (a new wl-paste) still pastes it: the bridge took the selection over.
        XCTAssertTrue(eventually(timeout: 10) { self.wlPasted(sway) == "outlives wl-copy" }, "wl-paste gave \(String(describing: wlPasted(sway))); log:\n\(daemon.log)")
        XCTAssertTrue(eventually(timeout: 10) { (try? self.pbOK("bridge").stdoutText)?.contains("clipboard ⇄ general: owned by the pasteboard") == true },
                      (try? pbOK("bridge").stdoutText) ?? "")
        // The same content: no new change, no second history entry.
        XCTAssertEqual(try pbOK("history").stdoutText, changes)
        XCTAssertEqual(pasted(), "outlives wl-copy")
    }

    func testThePrimarySelectionReachesThePrimaryPasteboard() throws {
        let sway = try startSway()
        try startDaemon(display: waylandEnvironment(sway))
        _ = try sway.copy(Array("selected with the mouse".utf8), ["--primary"])
        XCTAssertTrue(eventually(timeout: 10) { self.pasted("-p", "primary") == "selected with the mouse" }, "log:\n\(daemon.log)")
        XCTAssertNotEqual(pasted(), "selected with the mouse", "the primary selection reached the clipboard's pasteboard")
    }

    func testTheBridgeConnectsAgainWhenTheCompositorRestarts() throws {
        let sway = try startSway()
        try startDaemon(display: waylandEnvironment(sway))
        let first = try sway.copy(Array("before the restart".utf8))
        XCTAssertTrue(eventually(timeout: 10) { self.pasted() == "before the restart" }, "log:\n\(daemon.log)")
        sway.kill(first)
        sway.kill()
        XCTAssertTrue(eventually(timeout: 10) { self.bridgeState() == "waiting" }, "the bridge did not notice the compositor going: \(String(describing: try? bridgeStatus()))")
        // What was copied stays on the pasteboard while the compositor is gone.
        XCTAssertEqual(pasted(), "before the restart")

        try sway.start()
        XCTAssertTrue(eventually(timeout: 20) { self.bridgeState() == "bridging" }, "the bridge did not come back: \(String(describing: try? bridgeStatus())); log:\n\(daemon.log)")
        _ = try sway.copy(Array("after the restart".utf8))
        XCTAssertTrue(eventually(timeout: 10) { self.pasted() == "after the restart" }, "log:\n\(daemon.log)")
        try pbOK("copy", stdin: Data("out again".utf8))
        XCTAssertTrue(eventually(timeout: 10) { self.wlPasted(sway) == "out again" }, "log:\n\(daemon.log)")
    }

    func testWithBothDisplaysOnlyWaylandIsBridged() throws {
        let sway = try startSway()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xclip") else { throw XCTSkip("xclip is not installed (apt-get install xclip)") }
        let xserver = try XvfbServer(sandbox: sandbox)
        self.xserver = xserver
        try startDaemon(display: waylandEnvironment(sway).merging(["DISPLAY": xserver.display]) { $1 })
        XCTAssertEqual(try bridgeStatus()["protocol"] as? String, "zwlr-data-control-unstable-v1")

        // An X application copies, and another X client sees that copy on the X server ...
        let file = sandbox.path("x-copy")
        try Data("copied on the X server".utf8).write(to: URL(fileURLWithPath: file))
        let xEnvironment = sandbox.environment().merging(["DISPLAY": xserver.display]) { $1 }
        stopAtTearDown(try ToolProcess("/usr/bin/xclip", ["-selection", "clipboard", "-quiet", "-i", file], environment: xEnvironment, in: sandbox))
        XCTAssertTrue(eventually(timeout: 10) {
            (try? runTool("/usr/bin/xclip", ["-selection", "clipboard", "-o"], environment: xEnvironment, in: self.sandbox))?.stdoutText == "copied on the X server"
        })
        // ... then a Wayland application copies: only that one reaches the pasteboard.
        _ = try sway.copy(Array("copied in a Wayland app".utf8))
        XCTAssertTrue(eventually(timeout: 10) { self.pasted() == "copied in a Wayland app" }, "log:\n\(daemon.log)")
        XCTAssertFalse(try pbOK("history").stdoutText.contains("copied on the X server"), "the X11 copy was imported beside Wayland")
        XCTAssertTrue(daemon.log.contains("bridging the Wayland display"), daemon.log)
        XCTAssertFalse(daemon.log.contains("bridging the X11 display"), daemon.log)
    }

    func testTheWaylandDesktopSeesDeclaredTypesAndTheirUpgrades() async throws {
        let sway = try startSway()
        try startDaemon(display: waylandEnvironment(sway))
        let bytes = Array(#"{"title":"groceries"}"#.utf8)
        func offered() -> [String] {
            guard let result = try? sway.pasteWaiting(["-l"], seconds: 20), result.status == 0 else { return [] }
            return String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        try await declareNote(NoteType.v1, copying: bytes)
        XCTAssertTrue(eventually(timeout: 10) { offered().contains("application/vnd.example.note+json") }, "\(offered()); log:\n\(daemon.log)")
        XCTAssertEqual(wlPasted(sway, ["-t", "application/vnd.example.note+json"]).map { Array($0.utf8) }, bytes)

        try await declareNote(NoteType.v2)
        XCTAssertTrue(eventually(timeout: 10) { offered().contains("application/vnd.example.note.v2+json") }, "\(offered()); log:\n\(daemon.log)")
        XCTAssertFalse(offered().contains("application/vnd.example.note+json"), "\(offered())")

        _ = try sway.copy(Array(#"{"title":"from the desktop"}"#.utf8), ["-t", "application/vnd.example.note.v2+json"])
        XCTAssertTrue(eventually(timeout: 10) { (try? self.pb("list").stdoutText)?.contains("com.example.note  application/vnd.example.note.v2+json") == true },
                      "\(String(describing: try? pb("list").stdoutText)); log:\n\(daemon.log)")
        XCTAssertEqual(try pbOK("paste", "-t", "com.example.note").stdoutText, #"{"title":"from the desktop"}"#)
    }
}

import Foundation
import TestSupport
import XCTest

/// The X11 bridge against X clients that misbehave on purpose (Tests/Fixtures/hostile_x11_peer.py,
/// python-xlib): on X11 any client may talk to any other, so a buggy or hostile application is
/// a fact of life. Each attack leaves the bridge's process running, bridging, and within 64 MiB.
extension DesktopBridgeProcessTests {
    /// Starts the hostile peer in `mode` and waits until it says it is in place.
    func hostilePeer(_ mode: String, _ argument: String? = nil, server: XvfbServer, waitFor line: String = "ready") throws -> ToolProcess {
        guard X11OwnerPeer.isAvailable else { throw XCTSkip("python3 with python-xlib is not installed (apt-get install python3-xlib)") }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/hostile_x11_peer.py").path
        var environment = sandbox.environment().merging(displayEnvironment(server)) { $1 }
        environment["PYTHONUNBUFFERED"] = "1"
        let peer = try ToolProcess("/usr/bin/python3", [script, server.display, mode] + (argument.map { [$0] } ?? []), environment: environment, in: sandbox)
        peers.append(peer)
        XCTAssertNotNil(peer.waitForLine { $0 == line }, "the hostile peer (\(mode)) did not get ready: \(peer.stderrLines)")
        return peer
    }

    /// Starts an X server and the daemon with its bridge, copies `text` with pb, and waits until
    /// the bridge owns the desktop's clipboard for it; returns the X server and the bridge's pid.
    func bridgeExporting(_ text: String) throws -> (server: XvfbServer, bridge: Int) {
        let server = try startServer()
        try startDaemon(with: server)
        let bridge = try bridgePID()
        try pbOK("copy", "-t", "public.utf8-plain-text", stdin: Data(text.utf8))
        XCTAssertTrue(eventually(timeout: 10) { (try? self.pb("bridge").stdoutText)?.contains("clipboard ⇄ general: owned by the pasteboard") == true },
                      "\(String(describing: try? pb("bridge").stdoutText)); log:\n\(daemon.log)")
        return (server, bridge)
    }

    /// The bridge's peak resident size since `resetPeak`, in MiB.
    func bridgePeakMiB(_ pid: Int) throws -> Int {
        try ProcessCounters.peakResidentBytes(of: Int32(pid)) >> 20
    }

    func testTargetsThatNeverEndAreGivenUpWithTheBridgeBounded() throws {
        let server = try startServer()
        try startDaemon(with: server)
        let bridge = try bridgePID()
        try ProcessCounters.resetPeak(of: Int32(bridge))
        _ = try hostilePeer("targets-endless", server: server)
        XCTAssertTrue(daemon.waitForLog("more than 1024 targets"), "the endless TARGETS were not given up: log:\n\(daemon.log)")
        XCTAssertLessThan(try bridgePeakMiB(bridge), 64)
        // Still bridging: a real application's copy arrives.
        for peer in peers { peer.stop() }
        _ = try copyWithXclip("after the endless targets", server: server)
        XCTAssertTrue(eventually(timeout: 10) { self.pasted() == "after the endless targets" }, "log:\n\(daemon.log)")
        XCTAssertEqual(try bridgePID(), bridge)
    }

    func testAnOwnerDrippingItsTargetsDoesNotKeepLaterCopiesOut() throws {
        let server = try startServer()
        try startDaemon(with: server)
        _ = try hostilePeer("targets-drip", "2", server: server)
        // A real application copies while the drip goes on: it is imported once the drip's
        // whole-offer bound (10 s) gave up, not never.
        _ = try copyWithXclip("copied after the drip", server: server)
        XCTAssertTrue(eventually(timeout: 30) { self.pasted() == "copied after the drip" }, "log:\n\(daemon.log)")
    }

    func testTargetsNamingAtomsThatDoNotExistSkipTheOfferAndNothingElse() throws {
        let server = try startServer()
        try startDaemon(with: server)
        let bridge = try bridgePID()
        // The pasteboard owns PRIMARY on the desktop.
        try pbOK("copy", "--pasteboard", "primary", stdin: Data("the pasteboard's primary".utf8))
        let reader = sandbox.environment().merging(displayEnvironment(server)) { $1 }
        func primary() -> String? {
            (try? runTool("/usr/bin/xclip", ["-selection", "primary", "-o"], environment: reader, in: sandbox)).flatMap { $0.status == 0 ? $0.stdoutText : nil }
        }
        XCTAssertTrue(eventually(timeout: 10) { primary() == "the pasteboard's primary" }, "log:\n\(daemon.log)")

        _ = try hostilePeer("targets-bad-atoms", "never imported", server: server)
        XCTAssertTrue(daemon.waitForLog("cannot read the offer of CLIPBOARD"), "log:\n\(daemon.log)")
        // The second BadAtom is no later wait's error: the bridge did not start over, and the
        // pasteboard's PRIMARY stayed on the desktop all along.
        _ = try copyWithXclip("a good copy", server: server)
        XCTAssertTrue(eventually(timeout: 10) { self.pasted() == "a good copy" }, "log:\n\(daemon.log)")
        XCTAssertEqual(primary(), "the pasteboard's primary")
        XCTAssertFalse(daemon.log.contains("not bridging"), daemon.log)
        XCTAssertEqual(try bridgePID(), bridge)
    }

    func testAForgedSelectionClearDoesNotEndTheClipboardManagerDuty() throws {
        let server = try startServer()
        try startDaemon(with: server)
        XCTAssertTrue(daemon.waitForLog("serving CLIPBOARD_MANAGER"), daemon.log)
        let forger = try hostilePeer("forge-clear", server: server, waitFor: "sent")
        XCTAssertEqual(forger.waitForExit(timeout: 10), 0)
        // An application that copies and quits still hands its copy over.
        let png = PNGFixture.make(width: 8, height: 8, seed: 3)
        let application = try X11OwnerPeer(display: server.display, targets: [("image/png", png)], authority: authorityFile, sandbox: sandbox)
        XCTAssertTrue(eventually(timeout: 10) { (try? self.pb("list"))?.stdoutText.contains("public.png") == true }, "log:\n\(daemon.log)")
        XCTAssertEqual(application.quit(), 0, "the hand-over was refused after a forged SelectionClear: log:\n\(daemon.log)")
        XCTAssertFalse(daemon.log.contains("another clipboard manager"), daemon.log)
        XCTAssertEqual(try pbOK("paste", "-t", "public.png").stdout, png)
    }

    func testAFloodOfConversionsNobodyReadsIsRefusedBeyondTheLimit() throws {
        // A large copy the bridge exports: each conversion would buffer up to 2 MiB of it.
        let text = String(repeating: "a line of exported text, copied with pb\n", count: 400_000)
        let (server, bridge) = try bridgeExporting(text)
        let reader = sandbox.environment().merging(displayEnvironment(server)) { $1 }
        try ProcessCounters.resetPeak(of: Int32(bridge))
        _ = try hostilePeer("convert-flood", "2000", server: server)
        XCTAssertTrue(daemon.waitForLog("transfers to this requestor are under way"), "log:\n\(daemon.log)")
        XCTAssertLessThan(try bridgePeakMiB(bridge), 64)
        // Nearly 2000 refusals, a handful of log lines (LogThrottle).
        XCTAssertLessThanOrEqual(daemon.log.components(separatedBy: "refused UTF8_STRING").count - 1, 10, daemon.log)
        // Another application still pastes the whole copy.
        let pasted = try runTool("/usr/bin/xclip", ["-selection", "clipboard", "-o", "-t", "UTF8_STRING"], environment: reader, in: sandbox)
        XCTAssertEqual(pasted.status, 0, pasted.stderr)
        XCTAssertEqual(pasted.stdout, Data(text.utf8))
        XCTAssertEqual(try bridgePID(), bridge)
    }

    func testAMultipleWithNoPairsIsRefusedAndTheBridgeStaysUp() throws {
        let (server, bridge) = try bridgeExporting("some text the bridge exports")
        // Found by pasteboard-fuzz x11-session: an empty pair list made the owner index a part
        // it did not have, and the bridge crashed.
        let asker = try hostilePeer("multiple-empty", server: server, waitFor: "notified None")
        XCTAssertEqual(asker.waitForExit(timeout: 10), 0, "\(asker.stderrLines); log:\n\(daemon.log)")
        let reader = sandbox.environment().merging(displayEnvironment(server)) { $1 }
        let pasted = try runTool("/usr/bin/xclip", ["-selection", "clipboard", "-o"], environment: reader, in: sandbox)
        XCTAssertEqual(pasted.stdoutText, "some text the bridge exports", pasted.stderr)
        XCTAssertEqual(try bridgePID(), bridge, "log:\n\(daemon.log)")
    }

    func testTwoMultiplesIntoOnePropertyEndTheFirstAndTheBridgeStaysUp() throws {
        // A copy large enough for INCR, so the first answer is still streaming when the second comes.
        let text = String(repeating: "a line of text the bridge exports through INCR\n", count: 100_000)
        let (server, bridge) = try bridgeExporting(text)
        // Found by pasteboard-fuzz x11-session: the second answer ended the first transfer from
        // inside the owner's walk of its pending replies, an access Swift traps on.
        let asker = try hostilePeer("multiple-twice", server: server, waitFor: "notified 2")
        XCTAssertEqual(asker.waitForExit(timeout: 10), 0, "\(asker.stderrLines); log:\n\(daemon.log)")
        let reader = sandbox.environment().merging(displayEnvironment(server)) { $1 }
        let pasted = try runTool("/usr/bin/xclip", ["-selection", "clipboard", "-o"], environment: reader, in: sandbox)
        XCTAssertEqual(pasted.stdoutText, text, pasted.stderr)
        XCTAssertEqual(try bridgePID(), bridge, "log:\n\(daemon.log)")
    }
}

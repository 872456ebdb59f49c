import Dispatch
import Foundation
import Pasteboard
import PasteboardDesktop
import PasteboardDesktopTypes
import PasteboardTypes
import PasteboardX11
import Synchronization
import TestSupport
import XCTest

/// The X11 exporter against a real Xvfb, real xclip / xsel requestors and owners and a real
/// pasteboardd, run beside the X11 importer as the bridge runs them (one connection, one
/// BridgeEcho, one DesktopOwnWindows): what is copied with pb pastes in X applications, and
/// nothing echoes back.
final class X11ClipboardExportTests: IntegrationTestCase {
    private var server: XvfbServer?
    private var bridge: BridgeLanes?
    private let exported = EventLog<X11ClipboardExporter.Event>()
    private let imported = EventLog<X11ClipboardImporter.Event>()

    override func tearDown() {
        // Cancelling ends the exporter's X thread promptly, and run returns only after it.
        if let bridge { XCTAssertTrue(bridge.stop(), "the bridge did not end when cancelled") }
        server?.stop()
        super.tearDown()
    }

    // MARK: Setting up

    /// Starts Xvfb and the bridge of CLIPBOARD (importer and exporter) against this test's
    /// daemon; returns once both watch.
    @discardableResult
    private func startBridge(selection: DesktopSelection = .clipboard) throws -> XvfbServer {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xclip") else { throw XCTSkip("xclip is not installed (apt-get install xclip)") }
        let server = try XvfbServer(sandbox: sandbox)
        self.server = server
        let display = server.x11Display(sandbox: sandbox)
        let mappings = FollowedTypeMapping(DesktopTypeMapping(registry: .builtIn))
        let (ownWindows, echo) = (DesktopOwnWindows(), BridgeEcho())
        let importer = X11ClipboardImporter(display: display, selection: selection, mappings: mappings, ownWindows: ownWindows, echo: echo)
        let exporter = X11ClipboardExporter(display: display, selection: selection, mappings: mappings, ownWindows: ownWindows, echo: echo)
        let (exported, imported) = (exported, imported)
        bridge = BridgeLanes(socketPath: sandbox.socketPath, [
            { try await importer.run(on: $0) { imported.append($0) } },
            { try await exporter.run(on: $0) { exported.append($0) } },
        ])
        XCTAssertTrue(eventually(timeout: 20) { imported.all.contains(.watching) && exported.all.contains(.watching) },
                      "the bridge never watched: \(imported.all) \(exported.all)")
        return server
    }

    /// The environment of the X peers: this test's display only.
    private var peerEnvironment: [String: String] {
        var environment = sandbox.environment()
        environment.removeValue(forKey: "DISPLAY")
        return environment
    }

    /// Runs `xclip -o` (with `-t target`) on CLIPBOARD (or `selection`).
    private func xclipOut(_ target: String? = nil, selection: String = "clipboard") throws -> ProcessResult {
        var arguments = ["-display", try XCTUnwrap(server).display, "-selection", selection, "-o"]
        if let target { arguments += ["-t", target] }
        return try runTool("/usr/bin/xclip", arguments, environment: peerEnvironment, in: sandbox)
    }

    /// `xclip -o` that must succeed: its bytes.
    private func paste(_ target: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> Data {
        let result = try xclipOut(target)
        XCTAssertEqual(result.status, 0, "xclip -o \(target ?? ""): \(result.stderr) \(exported.all)", file: file, line: line)
        return result.stdout
    }

    /// The changes the exporter took the selection for, in order.
    private var ownedChanges: [Int] {
        exported.all.compactMap { if case let .owning(changeCount, _) = $0 { changeCount } else { nil } }
    }

    /// Waits until the exporter owns the selection for the pasteboard's current change.
    private func waitUntilExported(_ pasteboard: String = "general", file: StaticString = #filePath, line: UInt = #line) throws {
        let current = try changeCount(pasteboard)
        XCTAssertTrue(eventually(timeout: 20) { ownedChanges.contains(current) }, "change \(current) was never exported: \(exported.all)", file: file, line: line)
    }

    /// How many copies the importer put on the pasteboard so far.
    private var importedCount: Int { imported.count { if case .imported = $0 { true } else { false } } }

    /// Starts `xclip -i` owning CLIPBOARD with `text` and waits until the importer put it on the pasteboard.
    private func copyWithXclip(_ text: String, target: String? = nil) throws -> ToolProcess {
        let before = importedCount
        return try waitForImport(after: before, of: try XCTUnwrap(server).startXclip(text: text, target: target, environment: peerEnvironment, sandbox: sandbox))
    }

    private func copyWithXclip(file path: String, target: String? = nil) throws -> ToolProcess {
        let before = importedCount
        return try waitForImport(after: before, of: try XCTUnwrap(server).startXclip(file: path, target: target, environment: peerEnvironment, sandbox: sandbox))
    }

    /// Waits until the importer put the copy `peer` (started when `before` copies were imported) on the pasteboard.
    private func waitForImport(after before: Int, of peer: ToolProcess) throws -> ToolProcess {
        stopAtTearDown(peer)
        XCTAssertTrue(eventually(timeout: 20) { importedCount > before }, "xclip's copy was never imported: \(imported.all) \(peer.stderrLines)")
        return peer
    }

    /// The window that owns CLIPBOARD now.
    private func clipboardOwner() throws -> WindowID {
        let connection = try X11Connection.connect(displayName: try XCTUnwrap(server).display, environment: ["HOME": sandbox.root.path, "XAUTHORITY": sandbox.path("no-xauthority")])
        defer { connection.close() }
        return try X11Reply.getSelectionOwner(connection.roundTrip(.getSelectionOwner(connection.atom("CLIPBOARD"))))
    }

    /// The daemon's peak resident memory in KiB (VmHWM).
    private func daemonPeakKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(daemon.process.processIdentifier)/status", encoding: .utf8)
        return try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }.flatMap { Int($0.split(separator: " ")[1]) })
    }

    // MARK: Text and several representations

    func testCopiedTextPastesWithXclipAndXsel() throws {
        try startBridge()
        let text = "Grüße, from pb € 5\n"
        try pbOK("copy", stdin: Data(text.utf8))
        try waitUntilExported()
        XCTAssertEqual(String(decoding: try paste(), as: UTF8.self), text)
        XCTAssertEqual(String(decoding: try paste("UTF8_STRING"), as: UTF8.self), text)
        XCTAssertEqual(String(decoding: try paste("text/plain;charset=utf-8"), as: UTF8.self), text)
        // STRING is Latin-1: ü and ß are one byte each, the euro sign is not in it.
        XCTAssertEqual(try paste("STRING"), Data([0x47, 0x72, 0xFC, 0xDF, 0x65]) + Data(", from pb ? 5\n".utf8))
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/xsel") {
            let xsel = try runTool("/usr/bin/xsel", ["--display", try XCTUnwrap(server).display, "-b", "-o"], environment: peerEnvironment, in: sandbox)
            XCTAssertEqual(xsel.status, 0, xsel.stderr)
            XCTAssertEqual(xsel.stdoutText, text)
        }
    }

    func testAnImageAndItsTitleAreBothOfferedAndPasteByteForByte() throws {
        try startBridge()
        let png = PNGFixture.make(width: 120, height: 80, seed: 3)
        let path = sandbox.path("img.png")
        try png.write(to: URL(fileURLWithPath: path))
        try pbOK("copy", "--rep", "public.png=@\(path)", "--rep", "public.utf8-plain-text=Title")
        try waitUntilExported()
        let targets = String(decoding: try paste("TARGETS"), as: UTF8.self).split(separator: "\n").map(String.init)
        for expected in ["image/png", "UTF8_STRING", "text/plain;charset=utf-8", "text/plain", "STRING", "TEXT", "TARGETS", "TIMESTAMP", "MULTIPLE"] {
            XCTAssertTrue(targets.contains(expected), "\(expected) is not in \(targets)")
        }
        XCTAssertLessThan(try XCTUnwrap(targets.firstIndex(of: "image/png")), try XCTUnwrap(targets.firstIndex(of: "UTF8_STRING")), "the item's order: \(targets)")
        XCTAssertFalse(targets.contains("x-kde-passwordManagerHint"), "not a secret")
        XCTAssertEqual(try paste("image/png"), png)
        XCTAssertEqual(try paste("UTF8_STRING"), Data("Title".utf8))
    }

    // MARK: Large data

    func test20MiBPastesByteForByteBothWays() throws {
        try startBridge()
        let outgoing = try randomFile("out.bin", size: 20 << 20)
        try pbOK("copy", "--rep", "application/octet-stream=@\(outgoing)")
        try waitUntilExported()
        XCTAssertEqual(try paste("application/octet-stream"), try Data(contentsOf: URL(fileURLWithPath: outgoing)), "pb → xclip through INCR")
        XCTAssertTrue(exported.all.contains(.served(target: "application/octet-stream", bytes: 20 << 20)), "\(exported.all)")

        // The other way: xclip owns 20 MiB, the importer's promise fetches it when pasted.
        var incoming = try Data(contentsOf: URL(fileURLWithPath: outgoing))
        incoming.reverse()
        let incomingPath = sandbox.path("in.bin")
        try incoming.write(to: URL(fileURLWithPath: incomingPath))
        _ = try copyWithXclip(file: incomingPath, target: "application/octet-stream")
        XCTAssertTrue(eventually(timeout: 20) { exported.all.contains(.lost) }, "\(exported.all)")
        XCTAssertEqual(try pbOK("paste", "-t", "application/octet-stream").stdout, incoming, "xclip → pb")
    }

    func testUntypedBinaryIsOfferedAsOctetStreamAndPastesByteForByte() throws {
        try startBridge()
        // `pb copy somefile.bin`: bytes of no known kind are `public.data`, which has no MIME type.
        let path = try randomFile("somefile.bin", size: 300_000)
        try pbOK("copy", path)
        let listed = try pbOK("list").stdoutText
        XCTAssertTrue(listed.contains("public.data"), listed)
        try waitUntilExported()
        let targets = String(decoding: try paste("TARGETS"), as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertTrue(targets.contains("application/octet-stream"), "\(targets)")
        XCTAssertEqual(try paste("application/octet-stream"), try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func testALazySourceProducesItsDataOnlyWhenXclipPastesWithTheDaemonsMemoryBounded() throws {
        try startBridge()
        let size = 64 << 20
        let path = try randomFile("lazy.bin", size: size)
        let source = try startPB("copy", "--lazy", "-v", "--rep", "application/octet-stream=@\(path)")
        try waitForLazyItems()
        try waitUntilExported()
        XCTAssertFalse(source.stderrLines.contains { $0.contains("loading for") }, "nothing asked for the data yet: \(source.stderrLines)")
        // Changed after the copy: the paste must get the file as it is now, read only now.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data(repeating: 0x42, count: 1 << 20))
        try handle.close()
        let expected = try Data(contentsOf: URL(fileURLWithPath: path))
        let peakBefore = try daemonPeakKiB()
        let pasted = try paste("application/octet-stream")
        XCTAssertEqual(pasted.count, size)
        XCTAssertTrue(pasted == expected, "the bytes are the file's at paste time")
        XCTAssertTrue(source.stderrLines.contains { $0.contains("loading for") }, "the lazy source served the paste: \(source.stderrLines)")
        let peakAfter = try daemonPeakKiB()
        XCTAssertLessThan(peakAfter - peakBefore, 64 << 10, "pasteboardd's peak grew from \(peakBefore) KiB to \(peakAfter) KiB for a \(size >> 20) MiB paste")
    }

    func testALazySourceThatDiedIsRefusedClearlyNotHung() throws {
        try startBridge()
        let path = try randomFile("gone.bin", size: 4 << 20)
        let source = try startPB("copy", "--lazy", "--rep", "application/octet-stream=@\(path)")
        try waitForLazyItems()
        try waitUntilExported()
        source.signal(SIGKILL)
        XCTAssertNotNil(source.waitForExit())
        let refused = try xclipOut("application/octet-stream")
        XCTAssertNotEqual(refused.status, 0, "xclip -o pasted \(refused.stdout.count) bytes of a source that is gone")
        let reasons = exported.all.compactMap { if case let .refused("application/octet-stream", reason) = $0 { reason } else { nil } }
        XCTAssertEqual(reasons.count, 1, "\(exported.all)")
        XCTAssertTrue(reasons.first?.contains("(source-unavailable)") == true, "\(reasons)")
    }

    // MARK: No echo, letting go

    func testNeitherDirectionEchoesTheOther() throws {
        try startBridge()
        try pbOK("copy", stdin: Data("from pb".utf8))
        let copied = try changeCount()
        try waitUntilExported()
        XCTAssertEqual(try paste(), Data("from pb".utf8))

        // xclip's copy is the next change; had the importer read our ownership back, it would be two.
        let xclip = try copyWithXclip("from xclip")
        XCTAssertEqual(try changeCount(), copied + 1, "importer: \(imported.all)")
        XCTAssertEqual(importedCount, 1, "\(imported.all)")
        XCTAssertEqual(String(decoding: try pbOK("paste").stdout, as: UTF8.self), "from xclip")

        // The exporter took nothing back for the importer's change: the next change it owns is the next pb copy.
        try pbOK("copy", stdin: Data("again from pb".utf8))
        try waitUntilExported()
        XCTAssertEqual(ownedChanges, [copied, copied + 2], "\(exported.all)")
        XCTAssertEqual(try paste(), Data("again from pb".utf8))
        XCTAssertEqual(try changeCount(), copied + 2)
        XCTAssertEqual(xclip.waitForExit(timeout: 20), 0, "xclip lost the selection to our new copy and exited")
    }

    func testXclipKeepsTheSelectionItTookFromUs() throws {
        try startBridge()
        try pbOK("copy", stdin: Data("ours".utf8))
        try waitUntilExported()
        let xclip = try copyWithXclip("theirs")
        XCTAssertTrue(eventually(timeout: 20) { exported.all.contains(.lost) }, "\(exported.all)")
        XCTAssertEqual(String(decoding: try pbOK("paste").stdout, as: UTF8.self), "theirs")
        XCTAssertEqual(try paste(), Data("theirs".utf8))
        XCTAssertTrue(xclip.process.isRunning, "xclip still owns the selection")
        XCTAssertNotEqual(try clipboardOwner(), .none)
    }

    func testTheSelectionIsTakenBackForEachNewCopy() throws {
        try startBridge()
        for round in 1...3 {
            try pbOK("copy", stdin: Data("pb \(round)".utf8))
            try waitUntilExported()
            XCTAssertEqual(try paste(), Data("pb \(round)".utf8), "round \(round)")
            _ = try copyWithXclip("xclip \(round)")
            XCTAssertTrue(eventually(timeout: 20) { exported.count { $0 == .lost } == round }, "round \(round): \(exported.all)")
            XCTAssertEqual(String(decoding: try pbOK("paste").stdout, as: UTF8.self), "xclip \(round)")
        }
        XCTAssertEqual(ownedChanges.count, 3, "\(exported.all)")
    }

    // MARK: Secrets, clearing

    func testASecretCarriesThePasswordManagerHint() throws {
        try startBridge()
        try pbOK("copy", "--sensitive", stdin: Data("hunter2".utf8))
        try waitUntilExported()
        let targets = String(decoding: try paste("TARGETS"), as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertTrue(targets.contains("x-kde-passwordManagerHint"), "\(targets)")
        XCTAssertEqual(try paste("x-kde-passwordManagerHint"), Data("secret".utf8))
        XCTAssertEqual(try paste(), Data("hunter2".utf8))
    }

    func testClearingThePasteboardReleasesTheSelection() throws {
        try startBridge()
        try pbOK("copy", stdin: Data("short-lived".utf8))
        try waitUntilExported()
        XCTAssertEqual(try paste(), Data("short-lived".utf8))
        try pbOK("clear")
        XCTAssertTrue(eventually(timeout: 20) { exported.all.contains(.released) }, "\(exported.all)")
        let after = try xclipOut()
        XCTAssertNotEqual(after.status, 0, "xclip -o still pasted \(after.stdoutText)")
        XCTAssertEqual(try clipboardOwner(), .none)
    }

    func testThePrimaryPasteboardBecomesThePrimarySelection() throws {
        try startBridge(selection: .primary)
        try pbOK("copy", "-p", "primary", stdin: Data("selected with the mouse".utf8))
        try waitUntilExported("primary")
        let pasted = try xclipOut(selection: "primary")
        XCTAssertEqual(pasted.status, 0, pasted.stderr)
        XCTAssertEqual(pasted.stdoutText, "selected with the mouse")
        XCTAssertNotEqual(try xclipOut().status, 0, "CLIPBOARD is left alone")
    }

    func testTheExporterFailsClearlyWhenTheDisplayGoesAway() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xclip") else { throw XCTSkip("xclip is not installed (apt-get install xclip)") }
        let server = try XvfbServer(sandbox: sandbox)
        self.server = server
        let display = server.x11Display(sandbox: sandbox)
        let exporter = X11ClipboardExporter(display: display, mappings: FollowedTypeMapping(DesktopTypeMapping(registry: .builtIn)))
        let (socketPath, exported) = (sandbox.socketPath, exported)
        // The exporter on a connection of its own (run(socketPath:)), as the bridge's executable runs it.
        let lanes = BridgeLanes(socketPath: socketPath, [{ _ in try await exporter.run(socketPath: socketPath) { exported.append($0) } }])
        bridge = lanes
        XCTAssertTrue(eventually(timeout: 20) { exported.all.contains(.watching) }, "\(exported.all)")
        try pbOK("copy", stdin: Data("owned when the server dies".utf8))
        try waitUntilExported()
        server.stop()
        XCTAssertTrue(lanes.waitForEnd(timeout: 20), "the exporter hung after its X server died")
        let message = try XCTUnwrap(lanes.error, "the exporter ended without an error")
        XCTAssertTrue(message.hasPrefix("cannot offer the pasteboard as CLIPBOARD"), message)
    }

    func testContentFromBeforeTheBridgeStartedReachesAnUnownedSelection() throws {
        try pbOK("copy", stdin: Data("kept from the last session".utf8))
        try startBridge()
        try waitUntilExported()
        XCTAssertEqual(try paste(), Data("kept from the last session".utf8))
    }
}

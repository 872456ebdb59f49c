import TestSupport
import Foundation
import Pasteboard
import PasteboardDesktop
import PasteboardDesktopTypes
import PasteboardTypes
import PasteboardWayland
import Synchronization
import XCTest

/// The Wayland bridge, both directions at once as the daemon runs them (importer and exporter
/// of one selection sharing a BridgeEcho and a daemon connection, in the test process), against
/// a real headless sway, real wl-copy / wl-paste peers, a real pasteboardd and real pb.
final class WaylandBridgeTests: IntegrationTestCase {
    private var sway: HeadlessSway?
    private var bridge: BridgeLanes?
    private let imports = EventLog<WaylandClipboardImporter.Event>()
    private let exports = EventLog<WaylandClipboardExporter.Event>()
    /// The test's own Wayland clients (a watcher of the selection, a peer source).
    private var clients: [PasteboardWayland.SelectionReader] = []
    private var peerSources: [SelectionSource] = []

    override func tearDown() {
        bridge?.stop(timeout: 10)
        peerSources.forEach { $0.destroy() }
        peerSources = []
        clients.forEach { $0.close() }
        clients = []
        sway?.stop()
        super.tearDown()
    }

    /// Starts sway and the bridge of `selection`; returns once both directions watch.
    private func startBridge(_ selection: DesktopSelection = .clipboard, debounce: Duration? = nil) throws -> HeadlessSway {
        let sway = try HeadlessSway()
        self.sway = sway
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wl-paste") else { throw XCTSkip("wl-paste is not installed (.ci/run installs wl-clipboard)") }
        let display = WaylandDisplay(socketPath: sway.socketPath, environment: [:])
        let mappings = FollowedTypeMapping(DesktopTypeMapping(registry: .builtIn))
        let echo = BridgeEcho()
        let importer = WaylandClipboardImporter(display: display, selection: selection, mappings: mappings, echo: echo, debounce: debounce)
        let exporter = WaylandClipboardExporter(display: display, selection: selection, mappings: mappings, echo: echo)
        let (imports, exports) = (imports, exports)
        bridge = BridgeLanes(socketPath: sandbox.socketPath, [
            { try await importer.run(on: $0) { imports.append($0) } },
            { try await exporter.run(on: $0) { exports.append($0) } },
        ])
        XCTAssertTrue(eventually { imports.contains(.watching) && exports.contains(.watching) }, "the bridge never watched: \(imports.all) \(exports.all)")
        return sway
    }

    func testACompositorThatStopsAnsweringIsNoticedAndTheImporterEnds() throws {
        let sway = try HeadlessSway()
        self.sway = sway
        var importer = WaylandClipboardImporter(
            display: WaylandDisplay(socketPath: sway.socketPath, environment: [:], ownerTimeout: .seconds(1)),
            selection: .clipboard, mappings: FollowedTypeMapping(DesktopTypeMapping(registry: .builtIn)))
        importer.livenessInterval = .milliseconds(300)
        let imports = imports
        let ended = BridgeLanes(socketPath: sandbox.socketPath, [{ [importer] in try await importer.run(on: $0) { imports.append($0) } }])
        bridge = ended
        XCTAssertTrue(eventually { imports.contains(.watching) }, "\(imports.all)")
        // Still answering: the importer keeps running through several checks.
        XCTAssertFalse(eventually(timeout: 1.5) { ended.hasEnded }, "the importer ended with \(String(describing: ended.error)) while the compositor answered")
        // The compositor stops without closing anything, as sway did after dropping a client.
        sway.signal(SIGSTOP)
        defer { sway.signal(SIGCONT) }
        XCTAssertTrue(ended.waitForEnd(timeout: 10), "a compositor that stopped answering went unnoticed")
        XCTAssertTrue(ended.error?.contains("stopped answering") == true, String(describing: ended.error))
    }

    /// A Wayland client of the test's own on `sway`, to see who owns the selection.
    private func watcher(_ sway: HeadlessSway) throws -> PasteboardWayland.SelectionReader {
        let reader = try PasteboardWayland.SelectionReader(socketPath: sway.socketPath)
        clients.append(reader)
        return reader
    }

    /// Runs `copy` and waits until the importer put the copy on the pasteboard; returns its change count.
    @discardableResult
    private func imported(by copy: () throws -> Void) throws -> Int {
        let before = imports.importedChangeCounts.count
        try copy()
        XCTAssertTrue(eventually { imports.importedChangeCounts.count > before }, "never imported: \(imports.all)")
        return try XCTUnwrap(imports.importedChangeCounts.last)
    }

    /// Runs `copy` (a pb copy) and waits until our source owns the selection for it; returns the MIME types offered.
    @discardableResult
    private func exported(by copy: () throws -> Void) throws -> [String] {
        let before = exports.owned.count
        try copy()
        XCTAssertTrue(eventually(timeout: 20) { exports.owned.count > before }, "never exported: \(exports.all)")
        return try XCTUnwrap(exports.owned.last?.mimeTypes)
    }

    func testWlCopiedTextPastesWithPbAndListsTheMappedType() throws {
        let sway = try startBridge()
        try imported { _ = try sway.copy(Array("Grüße from Wayland".utf8)) }
        XCTAssertEqual(try pbOK("paste").stdoutText, "Grüße from Wayland")
        XCTAssertEqual(try representations(), ["public.utf8-plain-text"], "captured at once: not lazy")
    }

    func testAnImageAndItsTitleFromPbListAndPasteByteIdenticalWithWlPaste() throws {
        let sway = try startBridge()
        let png = PNGFixture.make(width: 120, height: 80, seed: 3)
        let path = sandbox.path("picture.png")
        try png.write(to: URL(fileURLWithPath: path))
        let offered = try exported { try pbOK("copy", "--rep", "public.png=@\(path)", "--rep", "public.utf8-plain-text=Title") }
        let listed = try sway.pasteWaiting(["-l"])
        XCTAssertEqual(listed.status, 0)
        let lines = String(decoding: listed.output, as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines, offered)
        XCTAssertEqual(Array(lines.prefix(6)), ["image/png", "text/plain;charset=utf-8", "text/plain", "UTF8_STRING", "STRING", "TEXT"])
        XCTAssertEqual(lines.last, WaylandBridgeMarker.mimeType)
        XCTAssertEqual(try sway.pasteWaiting(["-t", "image/png"]).output, Array(png))
        XCTAssertEqual(try sway.pasteWaiting(["-n", "-t", "text/plain"]).output, Array("Title".utf8))
        XCTAssertEqual(try sway.pasteWaiting(["-n", "-t", "UTF8_STRING"]).output, Array("Title".utf8))
        XCTAssertEqual(try sway.pasteWaiting(["-t", WaylandBridgeMarker.mimeType]).output, [], "the marker is an empty body")
    }

    func testTwentyMiBOfRandomBytesBothWaysByteIdentical() throws {
        let sway = try startBridge()
        let fromDesktop = try Data(contentsOf: URL(fileURLWithPath: try randomFile("in.bin", size: 20 << 20)))
        try imported { _ = try sway.copy(Array(fromDesktop), ["-t", "application/octet-stream"]) }
        XCTAssertEqual(try representations(), ["dyn.mime.application/octet-stream lazy"])
        var start = Date()
        let pasted = try pbOK("paste").stdout
        print("20 MiB from wl-copy through the bridge to pb paste in \(Date().timeIntervalSince(start)) s")
        XCTAssertEqual(pasted.count, fromDesktop.count)
        XCTAssertTrue(pasted == fromDesktop, "the bytes from wl-copy differ")

        let outPath = try randomFile("out.bin", size: (20 << 20) + 1)
        try exported { try pbOK("copy", "-t", "application/octet-stream", outPath) }
        start = Date()
        let toDesktop = try sway.pasteWaiting(["-t", "application/octet-stream"], seconds: 120)
        print("20 MiB from pb copy through the bridge to wl-paste in \(Date().timeIntervalSince(start)) s")
        XCTAssertEqual(toDesktop.status, 0)
        XCTAssertEqual(toDesktop.output.count, (20 << 20) + 1)
        XCTAssertTrue(Data(toDesktop.output) == (try Data(contentsOf: URL(fileURLWithPath: outPath))), "the bytes wl-paste got differ")
    }

    func testALazyLargeFileIsReadFromItsSourceWhenPastedWithTheDaemonsMemoryBounded() throws {
        let sway = try startBridge()
        let size = 64 << 20
        let path = try randomFile("large.bin", size: size)
        let peakBefore = try peakResidentBytes(of: daemon.process.processIdentifier)
        let source = try start("pb", ["copy", "--lazy", "-v", "-t", "application/octet-stream", path])
        try exported {}
        XCTAssertFalse(source.stderrLines.contains { $0.contains("loading for") }, "nothing is read before a paste: \(source.stderrLines)")
        // Changed after the copy: the paste must read the file as it is now, through pb.
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: path))
        try handle.write(contentsOf: Data("changed after the copy".utf8))
        try handle.close()
        let start = Date()
        let pasted = try sway.pasteWaiting(["-t", "application/octet-stream"], seconds: 300)
        print("64 MiB from pb copy --lazy through the bridge to wl-paste in \(Date().timeIntervalSince(start)) s")
        XCTAssertEqual(pasted.status, 0)
        XCTAssertEqual(pasted.output.count, size)
        XCTAssertTrue(Data(pasted.output) == (try Data(contentsOf: URL(fileURLWithPath: path))), "the pasted bytes are not the file's as it is now")
        XCTAssertTrue(pasted.output.starts(with: Array("changed after the copy".utf8)))
        XCTAssertNotNil(source.waitForLine { $0.contains("loading for") }, "pb served the load: \(source.stderrLines)")
        let growth = try peakResidentBytes(of: daemon.process.processIdentifier) - peakBefore
        print("pasteboardd's peak RSS grew by \(growth >> 10) KiB while 64 MiB went from pb --lazy through the bridge to wl-paste")
        XCTAssertLessThan(growth, 64 << 20, "the daemon held the data")
    }

    func testThePrimarySelectionBothWays() throws {
        let sway = try startBridge(.primary, debounce: .milliseconds(50))
        try imported { _ = try sway.copy(Array("selected with the mouse".utf8), ["-p"]) }
        XCTAssertEqual(try pbOK("paste", "-p", "primary").stdoutText, "selected with the mouse")
        XCTAssertEqual((try listing("general")["items"] as? [Any])?.count, 0, "the clipboard's pasteboard is not the primary's")
        try exported { try pbOK("copy", "-p", "primary", stdin: Data("from pb to the primary selection".utf8)) }
        XCTAssertEqual(try sway.pasteWaiting(["-p", "-n"]).output, Array("from pb to the primary selection".utf8))
        XCTAssertNotEqual(try sway.pasteWaiting(["-n"]).status, 0, "the clipboard stays empty")
    }

    func testCopiedTextStillPastesAfterWlCopyIsKilled() throws {
        let sway = try startBridge()
        let desktop = try watcher(sway)
        var peer: pid_t = 0
        try imported { peer = try sway.copy(Array("outlives its owner".utf8)) }
        sway.kill(peer)
        XCTAssertTrue(eventually { desktop.offer(.clipboard) == nil }, "the compositor cleared the selection")
        XCTAssertEqual(try pbOK("paste").stdoutText, "outlives its owner")
    }

    func testALazyImageOfAKilledOwnerFailsClearly() throws {
        let sway = try startBridge()
        let desktop = try watcher(sway)
        let png = PNGFixture.make(width: 64, height: 64, seed: 9)
        var peer: pid_t = 0
        try imported { peer = try sway.copy(Array(png), ["-t", "image/png"]) }
        XCTAssertEqual(try representations(), ["public.png lazy"])
        XCTAssertEqual(try pbOK("paste", "-t", "public.png").stdout, png)
        sway.kill(peer)
        XCTAssertTrue(eventually { desktop.offer(.clipboard) == nil })
        let failed = try pb("paste", "-t", "public.png")
        XCTAssertNotEqual(failed.status, 0)
        XCTAssertTrue(failed.stderr.contains("is gone"), failed.stderr)
    }

    func testASensitiveOfferNeverReachesTheStateDirectoryOrHistory() throws {
        let sway = try startBridge()
        let secret = "correct horse battery staple"
        try imported {
            // A password manager's copy: the password and KDE's hint with the value secret.
            let peer = try watcher(sway)
            peerSources.append(try SelectionSource(offering: ["text/plain;charset=utf-8", "text/plain", "x-kde-passwordManagerHint"], on: peer) { transfer in
                try await transfer.write(Array((transfer.mimeType == "x-kde-passwordManagerHint" ? "secret" : secret).utf8))
            })
        }
        XCTAssertTrue(try pbOK("list").stdoutText.contains("(sensitive)"))
        XCTAssertEqual(try pbOK("paste").stdoutText, secret)
        XCTAssertFalse(try stateFilesContain(secret), "a secret never reaches the disk")
        XCTAssertFalse(try pbOK("history").stdoutText.contains(secret), "nor the history")
    }

    func testTheCapturedTextPastesAfterAnApplicationWithAPrivateFormatFirstQuit() throws {
        let sway = try startBridge()
        let source = try imported {
            // As GTK's text view offers: its own format first, then the text.
            let peer = try watcher(sway)
            peerSources.append(try SelectionSource(offering: ["application/x-gtk-text-buffer-rich-text", "text/plain;charset=utf-8"], on: peer) { transfer in
                try await transfer.write(Array((transfer.mimeType == "text/plain;charset=utf-8" ? "the text" : "GTKTEXTBUFFERCONTENTS-0001").utf8))
            })
        }
        _ = source
        XCTAssertEqual(try representations().first, "public.utf8-plain-text", "the private format is not first")
        XCTAssertEqual(try pbOK("paste").stdoutText, "the text")
        // The application quits: the captured text still pastes, without -t.
        peerSources.forEach { $0.destroy() }
        peerSources = []
        XCTAssertEqual(try pbOK("paste").stdoutText, "the text")
    }

    func testASensitiveCopyIsOfferedWithTheSecretHint() throws {
        let sway = try startBridge()
        let offered = try exported { try pbOK("copy", "--sensitive", stdin: Data("hunter2".utf8)) }
        XCTAssertTrue(offered.contains("x-kde-passwordManagerHint"), "\(offered)")
        XCTAssertEqual(try sway.pasteWaiting(["-t", "x-kde-passwordManagerHint"]).output, Array("secret".utf8))
        XCTAssertEqual(try sway.pasteWaiting(["-n", "-t", "text/plain"]).output, Array("hunter2".utf8))
    }

    func testOurOwnSelectionMakesNoNewChange() throws {
        let sway = try startBridge()
        let desktop = try watcher(sway)
        try exported { try pbOK("copy", stdin: Data("from pb".utf8)) }
        let changeCount = try changeCount()
        XCTAssertTrue(eventually { imports.contains(.ownOffer) }, "the importer saw our offer: \(imports.all)")
        XCTAssertTrue(eventually { desktop.offer(.clipboard)?.mimeTypes.contains(WaylandBridgeMarker.mimeType) == true })
        XCTAssertEqual(try self.changeCount(), changeCount, "our own selection came back as a copy")
        XCTAssertEqual(imports.importedChangeCounts, [])
    }

    func testWlCopyMakesExactlyOneChangeAndStaysTheOwner() throws {
        let sway = try startBridge()
        let desktop = try watcher(sway)
        let before = try changeCount()
        let changeCount = try imported { _ = try sway.copy(Array("from wl-copy".utf8)) }
        XCTAssertEqual(changeCount, before + 1)
        XCTAssertTrue(eventually { exports.contains(.ownChange(changeCount: changeCount)) }, "\(exports.all)")
        XCTAssertEqual(try self.changeCount(), before + 1)
        XCTAssertEqual(exports.owned.count, 0, "the exporter took the selection back: \(exports.all)")
        let offer = try XCTUnwrap(desktop.offer(.clipboard))
        XCTAssertFalse(offer.mimeTypes.contains(WaylandBridgeMarker.mimeType), "wl-copy still owns the selection: \(offer.mimeTypes)")
        XCTAssertEqual(try sway.pasteWaiting(["-n"]).output, Array("from wl-copy".utf8))
    }

    func testClearingThePasteboardClearsTheDesktopSelection() throws {
        let sway = try startBridge()
        let desktop = try watcher(sway)
        try imported { _ = try sway.copy(Array("to be cleared".utf8)) }
        XCTAssertNotNil(desktop.offer(.clipboard))
        try pbOK("clear")
        XCTAssertTrue(eventually { desktop.offer(.clipboard) == nil }, "\(exports.all)")
        XCTAssertEqual(imports.importedChangeCounts.count, 1, "an empty selection is not a copy")
    }

    func testTheBridgeEndsWithAClearErrorWhenTheCompositorQuits() throws {
        let sway = try startBridge()
        sway.stop()
        XCTAssertTrue(try XCTUnwrap(bridge).waitForEnd(), "the bridge hangs on a compositor that is gone")
        let error = try XCTUnwrap(bridge?.error)
        XCTAssertTrue(error.hasPrefix("cannot bridge the Wayland clipboard: "), error)
        XCTAssertTrue(error.contains("Wayland compositor"), error)
    }

    /// The peak resident set (`VmHWM`) of process `pid`, in bytes.
    private func peakResidentBytes(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try XCTUnwrap(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes << 10
    }
}

extension EventLog where Event == WaylandClipboardImporter.Event {
    /// The change counts of the copies imported, in order.
    var importedChangeCounts: [Int] {
        all.compactMap { if case .imported(let changeCount, _, _) = $0 { changeCount } else { nil } }
    }
}

extension EventLog where Event == WaylandClipboardExporter.Event {
    /// Each time our source took the selection: the change and the MIME types offered.
    var owned: [(changeCount: Int, mimeTypes: [String])] {
        all.compactMap { if case .owning(let changeCount, let mimeTypes) = $0 { (changeCount, mimeTypes) } else { nil } }
    }
}

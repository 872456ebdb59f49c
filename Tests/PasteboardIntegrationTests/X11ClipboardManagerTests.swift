import Foundation
import Pasteboard
import PasteboardDesktop
import PasteboardDesktopTypes
import PasteboardTypes
import PasteboardX11
import Synchronization
import TestSupport
import XCTest

/// The X11 clipboard-manager duty and secrets on import, against a real Xvfb, a real
/// pasteboardd and a python-xlib application (`X11OwnerPeer`): the importer and the manager run
/// in the test process on one connection, sharing their echo, own windows, recent content and
/// handover as the bridge shares them.
final class X11ClipboardManagerTests: IntegrationTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    private var server: XvfbServer?
    private var peers: [X11OwnerPeer] = []
    private var bridge: BridgeLanes?
    private let events = BridgeEvents()

    override func tearDown() {
        bridge?.stop()
        for peer in peers { peer.stop() }
        peers = []
        server?.stop()
        super.tearDown()
    }

    /// What the importer and the manager reported, shared with their tasks.
    final class BridgeEvents: Sendable {
        private let imported = Mutex<[X11ClipboardImporter.Event]>([])
        private let managed = Mutex<[X11ClipboardManager.Event]>([])
        func append(_ event: X11ClipboardImporter.Event) { imported.withLock { $0.append(event) } }
        func append(_ event: X11ClipboardManager.Event) { managed.withLock { $0.append(event) } }
        var importer: [X11ClipboardImporter.Event] { imported.withLock { $0 } }
        var manager: [X11ClipboardManager.Event] { managed.withLock { $0 } }
        var importedCount: Int { importer.filter { if case .imported = $0 { true } else { false } }.count }
        var saved: [HandoverKeeping] { manager.compactMap { if case let .saved(_, _, _, kept) = $0 { kept } else { nil } } }
    }

    private func display(_ server: XvfbServer) -> X11Display {
        X11Display(displayName: server.display, environment: ["HOME": sandbox.root.path, "XAUTHORITY": sandbox.path("no-xauthority")])
    }

    /// Starts Xvfb (unless given) and the importer and manager of CLIPBOARD on one connection to
    /// this test's daemon; returns once the importer watches (and the manager manages, if
    /// `expectManaging`).
    @discardableResult
    private func startBridge(on given: XvfbServer? = nil, expectManaging: Bool = true, withImporter: Bool = true) throws -> XvfbServer {
        let server = try given ?? XvfbServer(sandbox: sandbox)
        self.server = server
        let (ownWindows, echo, recent, handover) = (DesktopOwnWindows(), BridgeEcho(), RecentContent(), ClipboardHandover())
        let mappings = FollowedTypeMapping(DesktopTypeMapping(registry: .builtIn))
        let importer = X11ClipboardImporter(
            display: display(server), selection: .clipboard, mappings: mappings, ownWindows: ownWindows, echo: echo, recent: recent, handover: handover)
        let manager = X11ClipboardManager(display: display(server), mappings: mappings, ownWindows: ownWindows, echo: echo, recent: recent, handover: handover)
        let events = events
        let importing: [BridgeLanes.Lane] = withImporter ? [{ try await importer.run(on: $0) { events.append($0) } }] : []
        bridge = BridgeLanes(socketPath: sandbox.socketPath, importing + [{ try await manager.run(on: $0) { events.append($0) } }])
        if withImporter {
            XCTAssertTrue(eventually(timeout: 10) { events.importer.contains(.watching) }, "the importer never watched: \(events.importer)")
        }
        if expectManaging {
            XCTAssertTrue(eventually(timeout: 10) { events.manager.contains(.managing) }, "the manager never took CLIPBOARD_MANAGER: \(events.manager)")
        }
        return server
    }

    /// Starts the python peer owning CLIPBOARD and waits until its copy is imported.
    private func copy(_ server: XvfbServer, _ targets: [(String, Data)], save: X11OwnerPeer.SaveRequest = .listed) throws -> X11OwnerPeer {
        let before = events.importedCount
        let peer = try X11OwnerPeer(display: server.display, targets: targets, save: save, sandbox: sandbox)
        peers.append(peer)
        XCTAssertTrue(eventually(timeout: 10) { self.events.importedCount > before }, "the peer's copy was never imported: \(events.importer)")
        return peer
    }

    /// The first item's representations, `lazy` marked, from `pb list --json`.
    private func representations() throws -> [String] {
        let items = try XCTUnwrap(listing()["items"] as? [[String: Any]])
        let first = try XCTUnwrap(items.first?["representations"] as? [[String: Any]])
        return first.map { "\($0["type"] as? String ?? "?")\(($0["lazy"] as? Bool) == true ? " lazy" : "")" }
    }

    /// `pb history --json`: each entry's types, newest first.
    private func historyTypes() throws -> [[String]] {
        let result = try pbOK("history", "--json")
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]], result.stdoutText)
        return entries.map { entry in
            (entry["items"] as? [[String: Any]] ?? []).flatMap { item in
                (item["representations"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
            }
        }
    }

    // MARK: Clipboard manager

    func testAnImageHandedOverAtExitStillPastesByteForByteWithOneHistoryEntry() throws {
        let server = try startBridge()
        // Over the 256 KiB a GetProperty reads, and over the peer's 64 KiB chunks: INCR.
        let path = sandbox.path("handed-over.png")
        try PNGFixture.writeLarge(to: path, size: 1 << 20)
        let png = try Data(contentsOf: URL(fileURLWithPath: path))
        let peer = try copy(server, [("image/png", png), ("UTF8_STRING", Data("the caption".utf8))])
        XCTAssertEqual(try representations(), ["public.png lazy", "public.utf8-plain-text"])

        XCTAssertEqual(peer.quit(), 0, "the application got no positive answer: \(peer.process.stderrLines) \(events.manager)")
        XCTAssertTrue(eventually { self.events.saved == [.settlePromises] }, "\(events.manager)")
        XCTAssertEqual(try representations(), ["public.png", "public.utf8-plain-text"], "every representation is held by the daemon now")
        XCTAssertEqual(try pbOK("paste", "-t", "public.png").stdout, png)
        XCTAssertEqual(try pbOK("paste", "-t", "text").stdoutText, "the caption")
        XCTAssertEqual(try changeCount(), 1, "the hand-over filled the imported item: no second change")
        XCTAssertEqual(try historyTypes(), [["public.png", "public.utf8-plain-text"]], "one copy, one history entry, now with the image")
    }

    func testWithoutAListEveryOfferedTargetIsSaved() throws {
        let server = try startBridge()
        let png = PNGFixture.make(width: 40, height: 30, seed: 3)
        let peer = try copy(server, [("UTF8_STRING", Data("all of it".utf8)), ("image/png", png)], save: .all)
        XCTAssertEqual(peer.quit(), 0, "\(peer.process.stderrLines) \(events.manager)")
        XCTAssertEqual(try pbOK("paste", "-t", "public.png").stdout, png)
        XCTAssertEqual(try pbOK("paste", "-t", "text").stdoutText, "all of it")
    }

    func testDataHandedOverWithoutAnImportedItemBecomesANewItem() throws {
        let server = try startBridge(withImporter: false)
        let png = PNGFixture.make(width: 64, height: 48, seed: 9)
        let peer = try X11OwnerPeer(display: server.display, targets: [("image/png", png), ("UTF8_STRING", Data("new item".utf8))], sandbox: sandbox)
        peers.append(peer)
        XCTAssertEqual(try changeCount(), 0)
        XCTAssertEqual(peer.quit(), 0, "\(peer.process.stderrLines) \(events.manager)")
        XCTAssertEqual(events.saved, [.newItem])
        XCTAssertEqual(try representations(), ["public.png", "public.utf8-plain-text"])
        XCTAssertEqual(try pbOK("paste", "-t", "public.png").stdout, png)
        XCTAssertEqual(try pbOK("paste", "-t", "text").stdoutText, "new item")
        XCTAssertEqual(try historyTypes(), [["public.png", "public.utf8-plain-text"]])
    }

    func testATextOnlyCopyIsAlreadyKeptAndTheApplicationMayExit() throws {
        let server = try startBridge()
        let peer = try copy(server, [("UTF8_STRING", Data("captured at the copy".utf8))])
        XCTAssertEqual(peer.quit(), 0, "\(peer.process.stderrLines) \(events.manager)")
        XCTAssertEqual(events.saved, [.alreadyKept])
        XCTAssertEqual(try pbOK("paste").stdoutText, "captured at the copy")
        XCTAssertEqual(try historyTypes().count, 1)
    }

    func testAnOfferWithNothingTheBridgeMapsIsRefusedAndTheApplicationStillGetsItsAnswer() throws {
        let server = try startBridge()
        let peer = try X11OwnerPeer(display: server.display, targets: [("PEER_PRIVATE_FORMAT", Data("opaque".utf8))], sandbox: sandbox)
        peers.append(peer)
        XCTAssertEqual(peer.quit(), 4, "refused (None): \(peer.process.stderrLines) \(events.manager)")
        XCTAssertTrue(events.manager.contains { if case .refused = $0 { true } else { false } }, "\(events.manager)")
    }

    func testAnotherClipboardManagerIsLeftAloneUntilItLeaves() throws {
        let server = try XvfbServer(sandbox: sandbox)
        self.server = server
        // Another manager owns CLIPBOARD_MANAGER first.
        let other = try X11Connection.connect(displayName: server.display, environment: ["HOME": sandbox.root.path, "XAUTHORITY": sandbox.path("no-xauthority")])
        let window = try other.createWindow()
        let selection = try other.atom("CLIPBOARD_MANAGER")
        try other.send(.setSelectionOwner(window, selection: selection, time: currentTime))
        try other.sync()
        try startBridge(on: server, expectManaging: false)
        XCTAssertTrue(eventually { self.events.manager.count == 1 }, "\(events.manager)")
        guard case .anotherManager? = events.manager.first else { return XCTFail("\(events.manager)") }
        XCTAssertEqual(try X11Reply.getSelectionOwner(other.roundTrip(.getSelectionOwner(selection))), window, "no fight for the selection")
        // When it leaves, the bridge takes the duty (and reported the other manager only once).
        other.close()
        XCTAssertTrue(eventually { self.events.manager.contains(.managing) }, "\(events.manager)")
        XCTAssertEqual(events.manager.filter { if case .anotherManager = $0 { true } else { false } }.count, 1)
    }

    // MARK: Secrets on import

    func testAnOfferWithKDEsHintValuedSecretIsSensitive() throws {
        let server = try startBridge()
        _ = try copy(server, [("UTF8_STRING", Data("x11-hunter2-pw".utf8)), ("x-kde-passwordManagerHint", Data("secret".utf8))])
        XCTAssertEqual(try pbOK("paste").stdoutText, "x11-hunter2-pw")
        XCTAssertTrue(try pbOK("list").stdoutText.contains("(sensitive)"))
        XCTAssertFalse(try stateFilesContain("x11-hunter2-pw"), "a secret never reaches the disk")
        XCTAssertFalse(try pbOK("history").stdoutText.contains("x11-hunter2"), "nor the history")
        XCTAssertEqual(try historyTypes(), [])
    }

    func testAnOfferWithKDEsHintValuedOtherwiseIsOrdinary() throws {
        let server = try startBridge()
        _ = try copy(server, [("UTF8_STRING", Data("x11-ordinary-text".utf8)), ("x-kde-passwordManagerHint", Data("public".utf8))])
        XCTAssertFalse(try pbOK("list").stdoutText.contains("(sensitive)"))
        XCTAssertTrue(eventually { (try? self.stateFilesContain("x11-ordinary-text")) == true }, "an ordinary copy is durable")
        XCTAssertTrue(try pbOK("history").stdoutText.contains("x11-ordinary-text"))
    }

    func testAnOfferWithTheConcealedTypeIsSensitive() throws {
        let server = try startBridge()
        _ = try copy(server, [("UTF8_STRING", Data("x11-concealed-pw".utf8)), ("org.nspasteboard.ConcealedType", Data())])
        XCTAssertTrue(try pbOK("list").stdoutText.contains("(sensitive)"))
        XCTAssertEqual(try pbOK("paste").stdoutText, "x11-concealed-pw")
        XCTAssertFalse(try stateFilesContain("x11-concealed-pw"))
        XCTAssertFalse(try pbOK("history").stdoutText.contains("x11-concealed"))
    }
}

import Foundation
import PasteboardDesktop
import PasteboardDesktopTypes
import PasteboardTypes
import PasteboardX11
import Synchronization
import TestSupport
import XCTest

/// The X11 importer against a real Xvfb, real xclip owners and a real pasteboardd: a desktop
/// copy becomes a pasteboard item, its text captured at once, the rest fetched when pasted.
final class X11ClipboardImportTests: IntegrationTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    private var server: XvfbServer?
    private var importer: Task<Void, any Error>?
    private let events = EventLog<X11ClipboardImporter.Event>()

    override func tearDown() {
        importer?.cancel()
        server?.stop()
        super.tearDown()
    }

    /// Starts Xvfb and the importer of CLIPBOARD against this test's daemon; returns once it watches.
    private func startImporter(ownWindows: DesktopOwnWindows = DesktopOwnWindows(), captureBudget: Int? = nil) throws -> XvfbServer {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xclip") else { throw XCTSkip("xclip is not installed (apt-get install xclip)") }
        let server = try XvfbServer(sandbox: sandbox)
        self.server = server
        let display = self.display(server)
        var importer = X11ClipboardImporter(display: display, selection: .clipboard, mappings: FollowedTypeMapping(DesktopTypeMapping(registry: .builtIn)), ownWindows: ownWindows)
        if let captureBudget { importer.captureBudget = captureBudget }
        let socketPath = sandbox.socketPath
        let events = self.events
        self.importer = Task {
            try await importer.run(socketPath: socketPath) { event in events.append(event) }
        }
        XCTAssertTrue(eventually(timeout: 10) { events.contains(.watching) }, "the importer never watched: \(events.all)")
        return server
    }

    /// The test's display, with no cookie file (Xvfb runs without access control).
    private func display(_ server: XvfbServer) -> X11Display {
        server.x11Display(sandbox: sandbox)
    }

    /// How many copies the importer put on the pasteboard so far.
    private var importedCount: Int {
        events.count { if case .imported = $0 { true } else { false } }
    }

    /// Starts `xclip -i` owning CLIPBOARD with the file at `path` and waits until it is imported.
    private func copyWithXclip(_ server: XvfbServer, file path: String, target: String? = nil) throws -> ToolProcess {
        let before = importedCount
        let peer = try server.startXclip(file: path, target: target, sandbox: sandbox)
        stopAtTearDown(peer)
        XCTAssertTrue(eventually(timeout: 10) { importedCount > before }, "xclip's copy was never imported: \(events.all) \(peer.stderrLines)")
        return peer
    }

    func testCopiedTextIsCapturedAndStillPastesAfterTheOwnerQuits() throws {
        let server = try startImporter()
        let path = sandbox.path("text.txt")
        try Data("Grüße from the desktop\n".utf8).write(to: URL(fileURLWithPath: path))
        let xclip = try copyWithXclip(server, file: path)
        XCTAssertEqual(try representations(), ["public.utf8-plain-text"])
        XCTAssertEqual(String(decoding: try pbOK("paste").stdout, as: UTF8.self), "Grüße from the desktop\n")
        xclip.stop()
        XCTAssertEqual(String(decoding: try pbOK("paste").stdout, as: UTF8.self), "Grüße from the desktop\n")
    }

    func testACopiedImageIsLazyAndFetchedByteForByteWhenPasted() throws {
        let server = try startImporter()
        let path = sandbox.path("picture.png")
        let png = PNGFixture.make(width: 200, height: 150, seed: 7)
        try png.write(to: URL(fileURLWithPath: path))
        let xclip = try copyWithXclip(server, file: path, target: "image/png")
        XCTAssertEqual(try representations(), ["public.png lazy"])
        XCTAssertEqual(try pbOK("paste", "-t", "public.png").stdout, png)
        // The owner gone, the promise fails clearly instead of hanging.
        xclip.stop()
        let failed = try pb("paste", "-t", "public.png")
        XCTAssertNotEqual(failed.status, 0)
        XCTAssertTrue(failed.stderr.contains("is gone"), failed.stderr)
    }

    func testALargeImageStreamsThroughINCRIntact() throws {
        let server = try startImporter()
        let path = sandbox.path("large.png")
        try PNGFixture.writeLarge(to: path, size: 6 << 20)
        _ = try copyWithXclip(server, file: path, target: "image/png")
        XCTAssertEqual(try representations(), ["public.png lazy"])
        XCTAssertEqual(try pbOK("paste", "-t", "public.png").stdout, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func testTheBridgesOwnWindowTakingTheSelectionIsNotImported() throws {
        let ownWindows = DesktopOwnWindows()
        let server = try startImporter(ownWindows: ownWindows)
        let connection = try X11Connection.connect(displayName: server.display, environment: server.x11Environment(sandbox: sandbox))
        defer { connection.close() }
        let window = try connection.createWindow()
        ownWindows.insert(window)
        try connection.send(.setSelectionOwner(window, selection: try connection.atom("CLIPBOARD"), time: currentTime))
        try connection.sync()
        // A foreign owner after ours is imported as usual; the importer takes owner changes in
        // order, so once it has imported that one it has passed ours.
        let path = sandbox.path("text.txt")
        try Data("after our own".utf8).write(to: URL(fileURLWithPath: path))
        _ = try copyWithXclip(server, file: path)
        XCTAssertEqual(String(decoding: try pbOK("paste").stdout, as: UTF8.self), "after our own")
        let seen = events.all
        XCTAssertEqual(importedCount, 1, "\(seen)")
        let beforeTheForeignOne = seen.prefix { if case .imported = $0 { false } else { true } }
        // (`settled` comes from the importer's task, `watching` from its X thread: either first.)
        XCTAssertEqual(beforeTheForeignOne.filter { $0 != .settled }, [.watching], "our own ownership was looked at as a copy")
        XCTAssertTrue(seen.contains(.settled))
    }

    func testAnOwnerFromBeforeTheImporterStartedIsImported() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xclip") else { throw XCTSkip("xclip is not installed (apt-get install xclip)") }
        let server = try XvfbServer(sandbox: sandbox)
        self.server = server
        let path = sandbox.path("text.txt")
        try Data("copied before".utf8).write(to: URL(fileURLWithPath: path))
        var environment = sandbox.environment()
        environment.removeValue(forKey: "DISPLAY")
        stopAtTearDown(try ToolProcess("/usr/bin/xclip", ["-display", server.display, "-selection", "clipboard", "-quiet", "-i", path], environment: environment, in: sandbox))
        let connection = try X11Connection.connect(displayName: server.display, environment: server.x11Environment(sandbox: sandbox))
        defer { connection.close() }
        let atom = try connection.atom("CLIPBOARD")
        XCTAssertTrue(eventually(timeout: 10) { (try? X11Reply.getSelectionOwner(connection.roundTrip(.getSelectionOwner(atom)))) != WindowID.none })
        let events = self.events
        let importer = X11ClipboardImporter(display: display(server), mappings: FollowedTypeMapping(DesktopTypeMapping(registry: .builtIn)))
        let socketPath = sandbox.socketPath
        self.importer = Task { try await importer.run(socketPath: socketPath) { event in events.append(event) } }
        XCTAssertTrue(eventually(timeout: 10) { importedCount == 1 }, "\(events.all)")
        XCTAssertEqual(String(decoding: try pbOK("paste").stdout, as: UTF8.self), "copied before")
    }

    func testTheImporterConnectsThroughXAUTHORITYToAServerThatDemandsACookie() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xclip") else { throw XCTSkip("xclip is not installed (apt-get install xclip)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xauth") else { throw XCTSkip("xauth is not installed (apt-get install xauth)") }
        let authority = sandbox.path("xauthority")
        let server = try XvfbServer(sandbox: sandbox, authorityFile: authority, cookie: String(repeating: "5e", count: 16))
        self.server = server
        // Without the cookie the server refuses the importer, and says why.
        let refused = X11ClipboardImporter(display: display(server), mappings: FollowedTypeMapping(DesktopTypeMapping(registry: .builtIn)))
        let socketPath = sandbox.socketPath
        let failure = Mutex<String?>(nil)
        let attempt = Task {
            do { try await refused.run(socketPath: socketPath) } catch { failure.withLock { $0 = "\(error)" } }
        }
        XCTAssertTrue(eventually(timeout: 10) { failure.withLock { $0 } != nil }, "the importer ran without a cookie")
        attempt.cancel()
        XCTAssertTrue(failure.withLock { $0 ?? "" }.contains("refused the connection"), failure.withLock { $0 ?? "" })
        // With XAUTHORITY naming the cookie file, as the display's own clients use it.
        let environment = ["HOME": sandbox.root.path, "XAUTHORITY": authority]
        let importer = X11ClipboardImporter(display: X11Display(displayName: server.display, environment: environment), mappings: FollowedTypeMapping(DesktopTypeMapping(registry: .builtIn)))
        let events = self.events
        self.importer = Task { try await importer.run(socketPath: socketPath) { event in events.append(event) } }
        XCTAssertTrue(eventually(timeout: 10) { events.contains(.watching) }, "\(events.all)")
        let path = sandbox.path("text.txt")
        try Data("through the cookie".utf8).write(to: URL(fileURLWithPath: path))
        var xclipEnvironment = sandbox.environment()
        xclipEnvironment.removeValue(forKey: "DISPLAY")
        xclipEnvironment["XAUTHORITY"] = authority
        stopAtTearDown(try ToolProcess("/usr/bin/xclip", ["-display", server.display, "-selection", "clipboard", "-quiet", "-i", path], environment: xclipEnvironment, in: sandbox))
        XCTAssertTrue(eventually(timeout: 10) { importedCount == 1 }, "\(events.all)")
        XCTAssertEqual(String(decoding: try pbOK("paste").stdout, as: UTF8.self), "through the cookie")
    }

    func testTextOverTheCaptureBudgetStaysLazy() throws {
        let server = try startImporter(captureBudget: 16)
        let path = sandbox.path("long.txt")
        let text = String(repeating: "a line longer than the budget\n", count: 100)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        _ = try copyWithXclip(server, file: path)
        XCTAssertEqual(try representations(), ["public.utf8-plain-text lazy"])
        XCTAssertEqual(String(decoding: try pbOK("paste").stdout, as: UTF8.self), text)
    }
}

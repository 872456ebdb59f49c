import Foundation
import PasteboardX11
import TestSupport
import XCTest

/// The X11 selection reader against a real Xvfb and real xclip peers. Each test starts its own
/// server and passes its display explicitly, so the developer's desktop is never touched.
final class X11SelectionTests: IntegrationTestCase {
    private var server: XvfbServer?

    /// No daemon: the reader speaks to the X server only.
    override class var startsDaemonInSetUp: Bool { false }

    override func tearDown() {
        server?.stop()
        super.tearDown()
    }

    /// Our environment for the connection: no cookie file unless a test gives one.
    private func environment(xauthority: String? = nil) -> [String: String] {
        ["HOME": sandbox.root.path, "XAUTHORITY": xauthority ?? sandbox.path("no-xauthority")]
    }

    private func startServer() throws -> XvfbServer {
        let server = try XvfbServer(sandbox: sandbox)
        self.server = server
        return server
    }

    private func connect(_ server: XvfbServer) throws -> X11Connection {
        try X11Connection.connect(displayName: server.display, environment: environment())
    }

    /// Starts `xclip -i` owning `selection` with the file at `path`, in the foreground, and
    /// waits until it owns the selection.
    private func startXclip(_ server: XvfbServer, selection: String = "clipboard", file path: String, target: String? = nil, watching connection: X11Connection) throws -> ToolProcess {
        let peer = try server.startXclip(file: path, selection: selection, target: target, sandbox: sandbox)
        stopAtTearDown(peer)
        let atom = try connection.atom(selection.uppercased())
        XCTAssertTrue(eventually(timeout: 10) {
            (try? X11Reply.getSelectionOwner(connection.roundTrip(.getSelectionOwner(atom)))) != WindowID.none
        }, "xclip never took \(selection): \(peer.stderrLines)")
        return peer
    }

    func testConnectsAndReportsTheRootAndMaximumRequestLength() throws {
        let server = try startServer()
        let connection = try connect(server)
        defer { connection.close() }
        XCTAssertTrue(connection.display.isLocal)
        XCTAssertNotEqual(connection.setup.root, .none)
        XCTAssertGreaterThanOrEqual(connection.setup.maximumRequestBytes, 4096)
        XCTAssertGreaterThanOrEqual(try connection.enableXFixes().firstEvent, 64)
        let atoms = try connection.internAtoms(["CLIPBOARD", "TARGETS", "PRIMARY"])
        XCTAssertEqual(atoms[2], .primary)
        XCTAssertEqual(try connection.atomNames([atoms[0], .string]), ["CLIPBOARD", "STRING"])
    }

    func testAnXErrorNamesTheRequest() throws {
        let server = try startServer()
        let connection = try connect(server)
        defer { connection.close() }
        XCTAssertThrowsError(try connection.roundTrip(.getAtomName(Atom(0x7fff_0000)))) { error in
            guard case let .request(xError) = error as? X11Error else { return XCTFail("\(error)") }
            XCTAssertEqual(xError.codeName, "BadAtom")
            XCTAssertEqual(xError.requestName, "GetAtomName")
        }
        try connection.send(.deleteProperty(window: WindowID(0x7fff_0001), property: .primary))
        XCTAssertThrowsError(try connection.sync()) { error in
            XCTAssertTrue("\(error)".contains("BadWindow for request DeleteProperty"), "\(error)")
        }
    }

    func testReadsTargetsAndTheExactTextXclipOwns() throws {
        let server = try startServer()
        let connection = try connect(server)
        defer { connection.close() }
        let text = "Grüße from xclip\n\tand a second line"
        let file = sandbox.path("text")
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        _ = try startXclip(server, file: file, watching: connection)
        let reader = try SelectionReader(connection: connection, timeout: .seconds(5))
        let targets = try reader.readTargets(selection: "CLIPBOARD")
        XCTAssertTrue(targets.contains("UTF8_STRING"), "\(targets)")
        XCTAssertTrue(targets.contains("TARGETS"), "\(targets)")
        var bytes: [UInt8] = []
        let result = try reader.read(selection: "CLIPBOARD", target: "UTF8_STRING") { bytes += $0 }
        XCTAssertEqual(result.type, "UTF8_STRING")
        XCTAssertFalse(result.wasIncremental)
        XCTAssertEqual(bytes, Array(text.utf8))
    }

    func testReads20MiBThroughINCRByteIdentical() throws {
        let server = try startServer()
        let connection = try connect(server)
        defer { connection.close() }
        let size = 20 << 20
        let file = sandbox.path("random")
        let original = Self.randomData(size)
        try original.write(to: URL(fileURLWithPath: file))
        _ = try startXclip(server, file: file, target: "application/octet-stream", watching: connection)
        let reader = try SelectionReader(connection: connection, timeout: .seconds(10))
        var received = Data()
        received.reserveCapacity(size)
        var chunks = 0
        let start = ContinuousClock.now
        let result = try reader.read(selection: "CLIPBOARD", target: "application/octet-stream") { chunk in
            received.append(contentsOf: chunk)
            chunks += 1
        }
        let elapsed = ContinuousClock.now - start
        print("X11 read of 20 MiB from xclip: \(elapsed) in \(chunks) chunks, type \(result.type), INCR \(result.wasIncremental)")
        XCTAssertTrue(result.wasIncremental, "xclip sends 20 MiB through INCR")
        XCTAssertEqual(result.byteCount, size)
        XCTAssertEqual(received.count, size)
        XCTAssertTrue(received == original, "the bytes differ")
        XCTAssertLessThan(connection.queuedEventCount, 8, "the transfer's own notifications do not pile up")
    }

    func testKilledOwnerFailsClearlyAndASilentOwnerTimesOut() throws {
        let server = try startServer()
        let connection = try connect(server)
        defer { connection.close() }
        let file = sandbox.path("text")
        try Data("gone soon".utf8).write(to: URL(fileURLWithPath: file))
        let peer = try startXclip(server, file: file, watching: connection)
        peer.stop()
        let reader = try SelectionReader(connection: connection, timeout: .seconds(2))
        let clipboard = try connection.atom("CLIPBOARD")
        XCTAssertTrue(eventually { (try? X11Reply.getSelectionOwner(connection.roundTrip(.getSelectionOwner(clipboard)))) == WindowID.none })
        XCTAssertThrowsError(try reader.read(selection: "CLIPBOARD", target: "UTF8_STRING") { _ in }) { error in
            XCTAssertEqual(error as? X11Error, .noOwner(selection: "CLIPBOARD"))
        }

        // An owner that never answers: a second connection takes the selection and stays silent.
        let silent = try connect(server)
        defer { silent.close() }
        let window = try silent.createWindow()
        try silent.send(.setSelectionOwner(window, selection: clipboard, time: currentTime))
        try silent.sync()
        let start = ContinuousClock.now
        XCTAssertThrowsError(try reader.read(selection: "CLIPBOARD", target: "UTF8_STRING") { _ in }) { error in
            guard case .timedOut = error as? X11Error else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("CLIPBOARD"), "\(error)")
        }
        let waited = ContinuousClock.now - start
        XCTAssertGreaterThanOrEqual(waited, .seconds(2))
        XCTAssertLessThan(waited, .seconds(4))
    }

    func testOwnerKilledInTheMiddleOfINCRFailsAtOnce() throws {
        let server = try startServer()
        let connection = try connect(server)
        defer { connection.close() }
        let file = sandbox.path("random")
        try Self.randomData(8 << 20).write(to: URL(fileURLWithPath: file))
        let peer = try startXclip(server, file: file, watching: connection)
        let reader = try SelectionReader(connection: connection, timeout: .seconds(20))
        var chunks = 0
        let start = ContinuousClock.now
        XCTAssertThrowsError(try reader.read(selection: "CLIPBOARD", target: "UTF8_STRING") { _ in
            chunks += 1
            if chunks == 2 { peer.stop() }
        }) { error in
            XCTAssertEqual(error as? X11Error, .ownerGone(selection: "CLIPBOARD"))
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(10), "noticed through XFIXES, not the 20 s timeout")
    }

    func testCancellationEndsAWait() throws {
        let server = try startServer()
        let connection = try connect(server)
        defer { connection.close() }
        let cancellation = connection.cancellation
        // Cancelled once this thread waits in the watch's poll.
        ProcessTree.whenBlockedInPoll(thread: ProcessTree.currentThread()) { cancellation.cancel() }
        let start = ContinuousClock.now
        XCTAssertThrowsError(try connection.watchOwnerChanges(selections: ["CLIPBOARD"], idleTimeout: .seconds(10)) { _ in true }) { error in
            XCTAssertEqual(error as? X11Error, .cancelled)
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(3))
    }

    func testWatchSeesXclipTakingTheSelection() throws {
        let server = try startServer()
        let connection = try connect(server)
        defer { connection.close() }
        let file = sandbox.path("text")
        try Data("watched".utf8).write(to: URL(fileURLWithPath: file))
        let box = PeerBox()
        let sandbox = sandbox!
        let display = server.display
        // xclip takes the selection once this thread waits in the watch's poll.
        ProcessTree.whenBlockedInPoll(thread: ProcessTree.currentThread()) {
            var environment = sandbox.environment()
            environment.removeValue(forKey: "DISPLAY")
            box.peer = try? ToolProcess("/usr/bin/xclip", ["-display", display, "-selection", "clipboard", "-quiet", "-i", file], environment: environment, in: sandbox)
        }
        defer { box.peer?.stop() }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xclip") else { throw XCTSkip("xclip is not installed") }
        var changes: [OwnerChange] = []
        try connection.watchOwnerChanges(selections: ["PRIMARY", "CLIPBOARD"], idleTimeout: .seconds(10)) { change in
            changes.append(change)
            return false
        }
        XCTAssertEqual(changes.count, 1)
        XCTAssertEqual(changes.first?.selection, "CLIPBOARD")
        XCTAssertEqual(changes.first?.kind, .setSelectionOwner)
        XCTAssertNotEqual(changes.first?.owner, WindowID.none)
        XCTAssertNotEqual(changes.first?.selectionTimestamp, 0)
    }

    func testAQuietPeriodReportsOnlyTheOwnerWhereTheSelectionStopped() throws {
        let server = try startServer()
        let watcher = try connect(server)
        defer { watcher.close() }
        let selector = try connect(server)
        defer { selector.close() }
        // Three mouse selections in a row, as a user dragging over text makes them.
        let windows = try (0..<3).map { _ in try selector.createWindow() }
        let primary = try selector.atom("PRIMARY")
        var changes: [OwnerChange] = []
        var thrown: X11Error?
        try watcher.watchOwnerChanges(selections: ["PRIMARY"], idleTimeout: .seconds(10), quietPeriod: .seconds(2), onWatching: {
            do throws(X11Error) {
                for window in windows { _ = try selector.send(.setSelectionOwner(window, selection: primary, time: currentTime)) }
                try selector.sync()
            } catch {
                thrown = error
            }
        }) { change in
            changes.append(change)
            return false
        }
        XCTAssertNil(thrown)
        XCTAssertEqual(changes.map(\.owner), [windows[2]], "only the last of three quick changes is reported")
    }

    func testAServerWithACookieAcceptsItThroughXAUTHORITYAndRefusesWithout() throws {
        let authority = sandbox.path("xauthority")
        let cookie = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        let server = try XvfbServer(sandbox: sandbox, authorityFile: authority, cookie: cookie)
        self.server = server
        let connection = try X11Connection.connect(displayName: server.display, environment: environment(xauthority: authority))
        XCTAssertNotEqual(connection.setup.root, .none)
        connection.close()
        XCTAssertThrowsError(try X11Connection.connect(displayName: server.display, environment: environment())) { error in
            guard case let .setupFailed(reason) = error as? X11Error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("no cookie was found"), reason)
        }
        // A wrong cookie is refused too.
        let wrong = sandbox.path("wrong-xauthority")
        let added = try runTool("/usr/bin/xauth", ["-f", wrong, "add", server.display, ".", String(repeating: "ab", count: 16)], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertThrowsError(try X11Connection.connect(displayName: server.display, environment: environment(xauthority: wrong))) { error in
            guard case .setupFailed = error as? X11Error else { return XCTFail("\(error)") }
        }
    }

    func testAForwardedDisplayIsRefusedUnlessAskedFor() throws {
        XCTAssertThrowsError(try X11Connection.connect(displayName: "localhost:10.0", environment: environment())) { error in
            guard case let .connectFailed(_, reason) = error as? X11Error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("not a local display"), reason)
        }
    }

    // MARK: Answers matched to their requests

    func testSeventyThousandAtomsAreNamedEachByItsOwnReply() throws {
        let server = try startServer()
        let connection = try connect(server)
        defer { connection.close() }
        // More requests than 16-bit sequence numbers tell apart, were they all in flight at once.
        let names = (0..<70_000).map { "PASTEBOARD_TEST_ATOM_\($0)" }
        let atoms = try connection.internAtoms(names)
        XCTAssertEqual(Set(atoms).count, names.count)
        // Named back (the cache was emptied past its limit, so each is asked of the server).
        let named = try connection.atomNames(atoms)
        XCTAssertEqual(named, names)
        XCTAssertEqual(connection.pendingAnswerCount.stored, 0)
        XCTAssertEqual(connection.pendingAnswerCount.awaited, 0)
    }

    func testAnXErrorIsTheAnswerOfItsOwnRequestOnly() throws {
        let server = try startServer()
        let connection = try connect(server)
        defer { connection.close() }
        let good = try connection.atom("UTF8_STRING")
        // Two atoms that do not exist in one batch: the first BadAtom fails the batch ...
        XCTAssertThrowsError(try connection.atomNames([good, Atom(0x1FFF_FFF0), Atom(0x1FFF_FFF1), good])) { error in
            guard case X11Error.request(let protocolError) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(protocolError.code, 5, "BadAtom")
        }
        // ... and the second is nobody's: not thrown by the next, unrelated wait, nor kept.
        XCTAssertNoThrow(try connection.sync())
        XCTAssertEqual(try connection.atomNames([good]), ["UTF8_STRING"])
        XCTAssertEqual(connection.pendingAnswerCount.stored, 0)
        XCTAssertEqual(connection.pendingAnswerCount.awaited, 0)
    }

    static func randomData(_ size: Int) -> Data {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(size)
        var data = Data(count: size)
        data.withUnsafeMutableBytes { raw in
            for index in raw.bindMemory(to: UInt64.self).indices {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                raw.bindMemory(to: UInt64.self)[index] = state
            }
        }
        return data
    }
}

/// The xclip a background queue started, for tearDown.
private final class PeerBox: @unchecked Sendable {
    // Safe: written once by the helper thread before the test reads it after the watch returned.
    var peer: ToolProcess?
}

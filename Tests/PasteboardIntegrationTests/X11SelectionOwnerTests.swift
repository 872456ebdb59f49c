import Foundation
import PasteboardX11
import TestSupport
import XCTest

/// The selection owner against a real Xvfb, with xclip, xsel and our own SelectionReader as
/// requestors. Each test starts its own server; the owner runs on a thread of its own, as the
/// bridge will run it.
final class X11SelectionOwnerTests: XCTestCase {
    private var sandbox: Sandbox!
    private var server: XvfbServer?
    private var owners: [OwnerThread] = []
    private var peers: [ToolProcess] = []

    override func setUpWithError() throws {
        sandbox = try Sandbox()
        for tool in ["/usr/bin/xclip", "/usr/bin/xsel"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is not installed (apt-get install xclip xsel)")
        }
        server = try XvfbServer(sandbox: sandbox)
    }

    override func tearDown() {
        for owner in owners { _ = owner.stop() }
        owners = []
        for peer in peers { peer.stop() }
        peers = []
        server?.stop()
        sandbox?.remove()
    }

    private var display: String { server!.display }

    private func connect() throws -> X11Connection {
        try X11Connection.connect(displayName: display, environment: ["HOME": sandbox.root.path, "XAUTHORITY": sandbox.path("no-xauthority")])
    }

    /// The peers' environment: our display only through `-display`.
    private var peerEnvironment: [String: String] {
        var environment = sandbox.environment()
        environment.removeValue(forKey: "DISPLAY")
        return environment
    }

    /// Starts an owner of `selection` offering `contents` (target → bytes, in order), written
    /// by its provider in 64 KiB pieces; it owns the selection when this returns.
    private func startOwner(
        selection: String = "CLIPBOARD", _ contents: KeyValuePairs<String, Data>, timeout: Duration = .seconds(5)
    ) throws -> OwnerThread {
        let table = Dictionary(uniqueKeysWithValues: contents.map { ($0.key, $0.value) })
        let owner = try SelectionOwner(connection: connect(), selection: selection, targets: contents.map(\.key), timeout: timeout) { request, writer in
            guard let data = table[request.target] else { throw CocoaError(.fileNoSuchFile) }
            var offset = 0
            while offset < data.count {
                let end = min(data.count, offset + 65536)
                try await writer.write([UInt8](data[offset..<end]))
                offset = end
            }
        }
        XCTAssertNotEqual(try owner.acquire(), currentTime)
        let thread = OwnerThread(owner)
        owners.append(thread)
        thread.start()
        return thread
    }

    private func xclipOut(_ target: String, selection: String = "clipboard") throws -> ProcessResult {
        try runTool("/usr/bin/xclip", ["-display", display, "-selection", selection, "-o", "-t", target], environment: peerEnvironment, in: sandbox)
    }

    func testXclipAndXselListAndReadEveryOfferedTargetByteIdentical() throws {
        let text = Data("Grüße from our owner\n\tsecond line".utf8)
        var png = Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
        png.append(X11SelectionTests.randomData(100_000))
        let owner = try startOwner(["UTF8_STRING": text, "text/plain;charset=utf-8": text, "image/png": png])

        let targets = try xclipOut("TARGETS")
        XCTAssertEqual(targets.status, 0, targets.stderr)
        XCTAssertEqual(targets.stdoutText.split(separator: "\n").map(String.init),
                       ["TARGETS", "TIMESTAMP", "MULTIPLE", "UTF8_STRING", "text/plain;charset=utf-8", "image/png"])
        for (target, expected) in [("UTF8_STRING", text), ("text/plain;charset=utf-8", text), ("image/png", png)] {
            let result = try xclipOut(target)
            XCTAssertEqual(result.status, 0, "\(target): \(result.stderr)")
            XCTAssertTrue(result.stdout == expected, "\(target): \(result.stdout.count) bytes differ from \(expected.count)")
        }
        let xsel = try runTool("/usr/bin/xsel", ["--display", display, "-b", "-o"], environment: peerEnvironment, in: sandbox)
        XCTAssertEqual(xsel.status, 0, xsel.stderr)
        XCTAssertEqual(xsel.stdout, text)

        let refused = try xclipOut("text/html")
        XCTAssertNotEqual(refused.status, 0, "an unknown target is refused")
        XCTAssertTrue(eventually { owner.events.contains { if case .refused("text/html", _, _) = $0 { true } else { false } } }, "\(owner.events)")
        XCTAssertTrue(owner.events.contains { if case .served("image/png", _, png.count, false) = $0 { true } else { false } }, "\(owner.events)")
        XCTAssertEqual(owner.stop(), .stopped)
        let check = try connect()
        defer { check.close() }
        XCTAssertEqual(try X11Reply.getSelectionOwner(check.roundTrip(.getSelectionOwner(check.atom("CLIPBOARD")))), WindowID.none, "stop gives the selection up")
    }

    func testTwentyMiBThroughINCRToXclipAndOurReader() throws {
        let size = 20 << 20
        let original = X11SelectionTests.randomData(size)
        let owner = try startOwner(["application/octet-stream": original])

        var start = ContinuousClock.now
        let result = try xclipOut("application/octet-stream")
        let xclipTime = ContinuousClock.now - start
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.count, size)
        XCTAssertTrue(result.stdout == original, "xclip's bytes differ")

        let connection = try connect()
        defer { connection.close() }
        let reader = try SelectionReader(connection: connection, timeout: .seconds(10))
        var received = Data()
        received.reserveCapacity(size)
        var chunks = 0
        start = ContinuousClock.now
        let read = try reader.read(selection: "CLIPBOARD", target: "application/octet-stream") { chunk in
            received.append(contentsOf: chunk)
            chunks += 1
        }
        let readerTime = ContinuousClock.now - start
        print("X11 owner, 20 MiB through INCR: xclip -o \(xclipTime) (whole process), SelectionReader \(readerTime) in \(chunks) chunks")
        XCTAssertTrue(read.wasIncremental)
        XCTAssertEqual(read.type, "application/octet-stream")
        XCTAssertTrue(received == original, "our reader's bytes differ")
        // Xvfb has BIG-REQUESTS: the owner sends 1 MiB chunks (as xclip does), not the 81 of
        // about 256 KiB the core request length allows; each is one GetProperty of the reader.
        XCTAssertEqual(chunks, size / SelectionTransferSizing.defaultMaximumChunkBytes)
        XCTAssertTrue(eventually {
            owner.events.filter { if case .served("application/octet-stream", _, size, true) = $0 { true } else { false } }.count == 2
        }, "\(owner.events)")
    }

    /// BIG-REQUESTS on a real server: once enabled, one ChangeProperty in the extended form
    /// carries 3 MiB that read back byte-identical; a connection that did not enable it keeps
    /// the core limit and refuses such a request before writing it.
    func testBigRequestsCarryMegabytesInOneChangeProperty() throws {
        let connection = try connect()
        defer { connection.close() }
        XCTAssertEqual(connection.maximumRequestBytes, connection.setup.maximumRequestBytes)
        let data = [UInt8](X11SelectionTests.randomData(3 << 20))
        let window = try connection.createWindow()
        let property = try connection.atom("PASTEBOARD_BIG")
        let request = try X11Request.changeProperty(window: window, property: property, type: connection.atom("application/octet-stream"), format: 8, data: data)
        XCTAssertThrowsError(try connection.send(request), "over the core maximum without BIG-REQUESTS")

        XCTAssertGreaterThanOrEqual(try connection.enableBigRequests(), 4 << 20, "Xvfb's BIG-REQUESTS maximum is 16 MiB")
        XCTAssertEqual(try connection.enableBigRequests(), connection.maximumRequestBytes, "asked once, then kept")
        try connection.send(request)
        let value = try X11Reply.getProperty(connection.roundTrip(.getProperty(window: window, property: property, longLength: 1 << 20, delete: true)))
        XCTAssertEqual(value.format, 8)
        XCTAssertEqual(value.bytesAfter, 0)
        XCTAssertTrue(value.data == data, "\(value.data.count) bytes read back differ from the \(data.count) written")
    }

    func testTheOwnerSeesSelectionClearWhenXclipTakesTheSelection() throws {
        let owner = try startOwner(["UTF8_STRING": Data("mine".utf8)])
        let file = sandbox.path("text")
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: file))
        peers.append(try ToolProcess("/usr/bin/xclip", ["-display", display, "-selection", "clipboard", "-quiet", "-i", file], environment: peerEnvironment, in: sandbox))
        XCTAssertTrue(eventually { owner.finished }, "run returns once the selection is lost: \(owner.events)")
        XCTAssertEqual(owner.result, .success(.lost))
        XCTAssertTrue(owner.events.contains { if case .lost = $0 { true } else { false } }, "\(owner.events)")
        XCTAssertEqual(try xclipOut("UTF8_STRING").stdoutText, "theirs")
    }

    /// "Take it only if nobody has it", as the bridge offers the pasteboard when it starts: the
    /// check and the take are apart, and a copy another client made in between must stay. The
    /// take uses the time read before the check, so the server refuses it.
    func testATakeTimedBeforeAnotherClientsCopyLeavesThatCopyAlone() throws {
        let owner = try SelectionOwner(connection: connect(), selection: "CLIPBOARD", targets: ["UTF8_STRING"], timeout: .seconds(5)) { _, writer in
            try await writer.write(Array("ours".utf8))
        }
        let checked = try owner.serverTime()
        XCTAssertEqual(try owner.currentOwner(), .none, "nobody owns it when we look")
        let file = sandbox.path("text")
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: file))
        peers.append(try ToolProcess("/usr/bin/xclip", ["-display", display, "-selection", "clipboard", "-quiet", "-i", file], environment: peerEnvironment, in: sandbox))
        XCTAssertTrue(eventually { (try? owner.currentOwner()) ?? .none != .none }, "xclip never took the clipboard")
        XCTAssertThrowsError(try owner.acquire(at: checked)) { error in
            guard case .ownershipNotTaken = error as? X11Error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try xclipOut("UTF8_STRING").stdoutText, "theirs", "the copy made after our look is still the desktop's")
        // Without the earlier time, a take is a take: it wins (what a new copy of ours does).
        XCTAssertNoThrow(try owner.acquire())
    }

    func testARequestorThatDiesOrStallsMidINCRDoesNotStopTheOwner() throws {
        let original = X11SelectionTests.randomData(4 << 20)
        let owner = try startOwner(["application/octet-stream": original], timeout: .seconds(1))

        // Two requestors start INCR and read one chunk: one then exits (its window is
        // destroyed), the other stays connected and stops reading (the bounded wait ends it).
        let dying = try RawRequestor(connection: connect())
        let stalled = try RawRequestor(connection: connect())
        XCTAssertTrue(try dying.startINCR(target: "application/octet-stream"))
        XCTAssertTrue(try stalled.startINCR(target: "application/octet-stream"))
        XCTAssertFalse(try dying.readChunk().isEmpty)
        XCTAssertFalse(try stalled.readChunk().isEmpty)
        dying.connection.close()

        // Meanwhile, and after, others are served in full.
        let result = try xclipOut("application/octet-stream")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout == original, "the next request is served byte-identical")
        let failures = { owner.events.compactMap { if case let .failed(_, _, reason) = $0 { reason } else { nil } } }
        XCTAssertTrue(eventually { failures().count == 2 }, "\(owner.events)")
        XCTAssertTrue(failures().contains { $0.contains("destroyed") || $0.contains("gone") }, "\(failures())")
        XCTAssertTrue(failures().contains { $0.contains("did not read chunk") }, "\(failures())")
        XCTAssertFalse(owner.finished)
        XCTAssertEqual(try xclipOut("application/octet-stream").stdout.count, original.count, "still serving")
        stalled.connection.close()
    }

    func testMultipleAnswersEachPairAndRefusesUnknownTargetsWithNone() throws {
        let text = Data("multiple".utf8)
        let owner = try startOwner(["UTF8_STRING": text])
        let requestor = try RawRequestor(connection: connect())
        let answer = try requestor.multiple(["UTF8_STRING", "text/html", "TIMESTAMP"])
        XCTAssertEqual(answer.pairs.map { $0.property == .none }, [false, true, false], "the unknown target's property is None")
        XCTAssertEqual(answer.values[0], Array(text))
        XCTAssertEqual(answer.values[2].count, 4, "TIMESTAMP is one 32-bit INTEGER")
        XCTAssertEqual(answer.values[2], withUnsafeBytes(of: (owner.acquiredAt ?? 0).littleEndian, Array.init))
    }
}

/// A requestor speaking the protocol directly, to misbehave where xclip would not.
private final class RawRequestor {
    let connection: X11Connection
    let window: WindowID
    private let property: Atom

    init(connection: X11Connection) throws {
        self.connection = connection
        window = try connection.createWindow()
        property = try connection.atom("RAW_DATA")
    }

    private func convert(_ target: String, property: Atom) throws -> X11Event.SelectionNotify {
        let clipboard = try connection.atom("CLIPBOARD")
        try connection.send(.convertSelection(requestor: window, selection: clipboard, target: connection.atom(target), property: property, time: currentTime))
        let event = try connection.nextEvent(deadline: X11Deadline(after: .seconds(5)), what: "SelectionNotify") {
            if case .selectionNotify = $0 { true } else { false }
        }
        guard case let .selectionNotify(notify) = event else { throw X11Error.malformedFromServer("not a SelectionNotify") }
        return notify
    }

    private func get(_ property: Atom, delete: Bool) throws -> PropertyValue {
        try X11Reply.getProperty(connection.roundTrip(.getProperty(window: window, property: property, longLength: 1 << 20, delete: delete)))
    }

    /// Asks for `target` and deletes the INCR header; true when the answer was INCR.
    func startINCR(target: String) throws -> Bool {
        let notify = try convert(target, property: property)
        guard notify.property == property else { return false }
        // The header's own NewValue came before the SelectionNotify: not a chunk.
        connection.discardEvents { if case .propertyNotify = $0 { true } else { false } }
        return try get(property, delete: true).type == connection.atom("INCR")
    }

    /// Waits for the next chunk and reads it, deleting it as a requestor that read it does.
    func readChunk() throws -> [UInt8] {
        let property = property
        _ = try connection.nextEvent(deadline: X11Deadline(after: .seconds(5)), what: "a chunk") {
            if case let .propertyNotify(notify) = $0 { notify.atom == property && notify.isNewValue } else { false }
        }
        return try get(property, delete: true).data
    }

    /// MULTIPLE with `targets`, each into a property of its own: the pairs written back and
    /// each property's bytes.
    func multiple(_ targets: [String]) throws -> (pairs: [AtomPair], values: [[UInt8]]) {
        let properties = try connection.internAtoms(targets.indices.map { "RAW_PART_\($0)" })
        let pairs = try zip(targets, properties).map { AtomPair(target: try connection.atom($0), property: $1) }
        let pairList = try connection.atom("RAW_PAIRS")
        try connection.send(.changeProperty(window: window, property: pairList, type: connection.atom("ATOM_PAIR"), format: 32, data: SelectionReplyEncoding.encodeAtomPairs(pairs)))
        let notify = try convert("MULTIPLE", property: pairList)
        XCTAssertEqual(notify.property, pairList)
        let written = try SelectionReplyEncoding.atomPairs(get(pairList, delete: true), atomPair: connection.atom("ATOM_PAIR"))
        let values = try properties.map { try get($0, delete: true).data }
        return (written, values)
    }
}

/// An owner running on a thread of its own, and what it reported.
private final class OwnerThread: @unchecked Sendable {
    // Safe: `owner` is used by the thread alone once started (control and acquiredAt are read
    // only after acquire, before the start); `reported` and `outcome` are guarded by `lock`.
    private let owner: SelectionOwner
    private let control: SelectionOwner.Control
    let acquiredAt: X11Timestamp?
    private let lock = NSLock()
    private var reported: [SelectionOwnerEvent] = []
    private var outcome: Result<SelectionOwner.StopReason, X11Error>?
    private let done = DispatchSemaphore(value: 0)

    init(_ owner: SelectionOwner) {
        self.owner = owner
        control = owner.control
        acquiredAt = owner.acquiredAt
    }

    func start() {
        Thread.detachNewThread { [self] in
            let result: Result<SelectionOwner.StopReason, X11Error>
            do { result = .success(try owner.run { event in self.lock.withLock { self.reported.append(event) } }) } catch let error as X11Error { result = .failure(error) } catch { result = .failure(.invalidArgument("\(error)")) }
            owner.connection.close()
            lock.withLock { outcome = result }
            done.signal()
        }
    }

    var events: [SelectionOwnerEvent] { lock.withLock { reported } }
    var result: Result<SelectionOwner.StopReason, X11Error>? { lock.withLock { outcome } }
    var finished: Bool { result != nil }

    /// Stops the owner and waits for its thread; the reason it stopped.
    func stop() -> SelectionOwner.StopReason? {
        control.stop()
        if !finished { _ = done.wait(timeout: .now() + 10) }
        if case let .success(reason) = result { return reason }
        return nil
    }
}

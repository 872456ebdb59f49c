import Foundation
import Glibc
import Pasteboard
import XCTest

/// Descriptor hand-off: a local load from a live source runs through a socket pair the daemon
/// passes to both sides, and every client that cannot take part still gets the bytes in-band.
final class HandoffTests: IntegrationTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    private let handedOff = "through a handed-off socket"

    /// Copies a random file lazily (`pb copy --lazy -v`) and pastes it with progress, with
    /// `environment` for the paste; returns the source's "loading for" line.
    private func lazyRoundTrip(size: Int, pasteEnvironment: [String: String] = [:]) throws -> String? {
        let file = try randomFile("lazy.bin", size: size)
        let source = try startPB("copy", "--lazy", "-v", file)
        try waitForLazyItems()
        let output = sandbox.path("pasted.bin")
        let paste = try runTool(
            "pb", ["paste", "--progress", "-o", output], environment: sandbox.environment().merging(pasteEnvironment) { $1 }, in: sandbox)
        XCTAssertEqual(paste.status, 0, paste.stderr)
        XCTAssertTrue(FileManager.default.contentsEqual(atPath: output, andPath: file), "the pasted file is the copied one, byte for byte")
        let progress = progressLines(paste.stderr.split(separator: "\n").map(String.init))
        XCTAssertEqual(progress.last?.completed, size, "progress ends at the total")
        XCTAssertTrue(progress.allSatisfy { $0.total == size }, "every report carries the total")
        XCTAssertEqual(progress.map(\.completed), progress.map(\.completed).sorted(), "progress never goes back")
        let line = source.waitForLine { $0.contains("delivered") }
        XCTAssertNotNil(line, "the source hears the delivery: \(source.stderrLines)")
        return source.stderrLines.first { $0.contains("loading for") }
    }

    func testALocalLoadFromALiveSourceIsHandedOffWithProgress() throws {
        let loading = try lazyRoundTrip(size: 12 << 20)
        XCTAssertTrue(loading?.contains(handedOff) == true, "pb copy --lazy -v says the load was handed off: \(loading ?? "no line")")
    }

    func testAProcessWithHandoffTurnedOffGetsTheBytesThroughTheDaemon() throws {
        let loading = try lazyRoundTrip(size: 6 << 20, pasteEnvironment: ["PASTEBOARD_HANDOFF": "0"])
        XCTAssertNotNil(loading)
        XCTAssertFalse(loading?.contains(handedOff) == true, "PASTEBOARD_HANDOFF=0 streams in-band: \(loading ?? "")")
    }

    func testTheLibraryAttachesItsHandoffSocketWhenTheDaemonAsks() async throws {
        let file = try randomFile("lazy.bin", size: 5 << 20)
        let source = try startPB("copy", "--lazy", "-v", file)
        try waitForLazyItems()
        // A PasteboardConnection asks for hand-off in its read and attaches its socket only on
        // the daemon's `attach`: the bytes then come straight from the source.
        let loaded = try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "tests", autoStart: false) {
            try await Pasteboard(connection: $0).loadData(accepting: []).bytes
        }
        XCTAssertEqual(Data(loaded), try Data(contentsOf: URL(fileURLWithPath: file)))
        let line = source.waitForLine { $0.contains("loading for") }
        XCTAssertTrue(line?.contains(handedOff) == true, "the library's load was handed off: \(line ?? "no line")")
    }

    func testADaemonWithoutHandoffOffersNoneAndStillServesLoads() throws {
        try restartDaemon(["--no-handoff"])
        let client = try RawClient(socketPath: sandbox.socketPath)
        defer { client.close() }
        let welcome = try client.hello()
        XCTAssertEqual(welcome.op, "welcome")
        XCTAssertNil(welcome.json?["handoff"], "--no-handoff offers no hand-off socket")
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.socketPath + ".handoff"))
        let loading = try lazyRoundTrip(size: 6 << 20)
        XCTAssertFalse(loading?.contains(handedOff) == true, "\(loading ?? "")")
    }

    func testADestinationThatAsksButNeverAttachesGetsTheBytesInBand() throws {
        let file = try randomFile("lazy.bin", size: 300_000)
        let source = try startPB("copy", "--lazy", "-v", file)
        try waitForLazyItems()
        let client = try RawClient(socketPath: sandbox.socketPath)
        defer { client.close() }
        let welcome = try client.hello()
        let offer = try XCTUnwrap(welcome.json?["handoff"] as? [String: Any], "the daemon offers hand-off")
        XCTAssertEqual((offer["token"] as? String)?.count, 32)
        // Asks for a hand-off, but never connects to the hand-off socket when the daemon says
        // `attach`: after waiting for it, the daemon streams the bytes in data frames instead.
        try client.sendMessage(["op": "read", "pasteboard": "general", "item": 0, "accept": [], "handoff": true], requestID: 1)
        let attach = try XCTUnwrap(try client.receiveSkippingProgress())
        XCTAssertEqual(attach.op, "attach", "the daemon asks the destination to attach its hand-off socket")
        XCTAssertEqual(attach.requestID, 1)
        let header = try XCTUnwrap(try client.receiveSkippingProgress())
        XCTAssertEqual(header.op, "representation")
        XCTAssertNil(header.json?["handoff"])
        var received: [UInt8] = []
        while let frame = try client.receiveSkippingProgress(), frame.kind == 2 {
            received += frame.payload
            if frame.flags & 1 != 0 { break }  // END; 300 kB fits the first window, so no credit is due
        }
        XCTAssertEqual(Data(received), try Data(contentsOf: URL(fileURLWithPath: file)))
        XCTAssertNotNil(source.waitForLine { $0.contains("loading for") && !$0.contains(handedOff) })
    }

    func testALoadOfAStoredItemNeverAsksForTheHandoffSocket() throws {
        try pbOK("copy", stdin: Data("stored bytes".utf8))
        let client = try RawClient(socketPath: sandbox.socketPath)
        defer { client.close() }
        XCTAssertNotNil(try client.hello().json?["handoff"], "the daemon offers hand-off")
        // The daemon holds these bytes itself: it answers at once, in-band, without `attach`, so a
        // `pb paste` of a stored item makes no second connection.
        try client.sendMessage(["op": "read", "pasteboard": "general", "item": 0, "accept": [], "handoff": true], requestID: 1)
        let header = try XCTUnwrap(try client.receiveSkippingProgress())
        XCTAssertEqual(header.op, "representation")
        XCTAssertNil(header.json?["handoff"])
        let data = try XCTUnwrap(try client.receiveSkippingProgress())
        XCTAssertEqual(data.kind, 2)
        XCTAssertEqual(String(decoding: data.payload, as: UTF8.self), "stored bytes")
    }

    func testTheHandoffSocketIsPrivateAndIgnoresAWrongToken() throws {
        let path = sandbox.socketPath + ".handoff"
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0, "the daemon listens at SOCKET.handoff")
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        let stranger = try RawClient(socketPath: path)
        defer { stranger.close() }
        try stranger.sendRaw(Array(String(repeating: "0", count: 32).utf8))
        XCTAssertEqual(try stranger.drainUntilClosed().count, 0, "a wrong token is closed without a word")
        // The daemon is unharmed.
        try pbOK("copy", stdin: Data("still here".utf8))
        XCTAssertEqual(try pbOK("paste").stdoutText, "still here")
    }
}

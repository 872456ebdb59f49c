import Foundation
import Pasteboard
import Glibc
import XCTest

/// Whatever a raw socket client sends, the daemon answers with an error or closes that one
/// connection, buffers nothing without bound, and keeps serving everyone else.
final class BadInputTests: IntegrationTestCase {
    /// The daemon still serves a well-behaved client, and still holds what it held.
    private func assertDaemonServes(line: UInt = #line) throws {
        XCTAssertEqual(try pbOK("paste", line: line).stdoutText, "precious", line: line)
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try pbOK("copy", stdin: Data("precious".utf8))
    }

    /// Pseudo-random bytes from `seed` (reproducible).
    private func noise(seed: UInt64, count: Int) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    func testRandomBytesBeforeAndAfterTheHandshakeCloseOnlyThatConnection() throws {
        let bystander = try RawClient(socketPath: sandbox.socketPath)
        XCTAssertEqual(try bystander.hello().op, "welcome")
        for seed in UInt64(1)...40 {
            let client = try RawClient(socketPath: sandbox.socketPath)
            if seed.isMultiple(of: 2) { XCTAssertEqual(try client.hello().op, "welcome") }
            try? client.sendRaw(noise(seed: seed, count: 1 + Int(seed) * 997))
            // Shut down our side: the daemon must answer, close, or wait for more; never crash.
            shutdown(client.fd, Int32(SHUT_WR))
            let frames = (try? client.drainUntilClosed()) ?? []
            for frame in frames where frame.kind == 1 && frame.op == "error" {
                XCTAssertNotNil(frame.json?["code"] as? String, "an error names its code")
            }
        }
        try bystander.sendMessage(["op": "list", "pasteboard": "general"], requestID: 1)
        XCTAssertEqual(try bystander.receive()?.op, "items", "the bystander noticed nothing")
        XCTAssertTrue(daemon.process.isRunning)
        try assertDaemonServes()
    }

    func testATruncatedFrameIsDroppedWhenTheClientLeaves() throws {
        let client = try RawClient(socketPath: sandbox.socketPath)
        XCTAssertEqual(try client.hello().op, "welcome")
        let body = Array(#"{"op":"write","pasteboard":"general","items":[]}"#.utf8)
        var frame: [UInt8] = withUnsafeBytes(of: UInt32(6 + body.count).bigEndian, Array.init) + [1, 0, 0, 0, 0, 1] + body
        frame.removeLast(10)
        try client.sendRaw(frame)
        shutdown(client.fd, Int32(SHUT_WR))
        XCTAssertEqual(try client.drainUntilClosed().filter { $0.requestID == 1 }, [], "half a write is never executed")
        try assertDaemonServes()
    }

    func testValidFramesOfTheWrongKind() throws {
        // A data frame before the handshake.
        let early = try RawClient(socketPath: sandbox.socketPath)
        try early.send(kind: 2, flags: 1, requestID: 0, payload: [1, 2, 3])
        XCTAssertEqual(try early.receive()?.json?["code"] as? String, "handshake-required")
        XCTAssertEqual(try early.drainUntilClosed(), [])

        // A data frame for no request is dropped; a reply-only message is refused; both leave the connection usable.
        let client = try RawClient(socketPath: sandbox.socketPath)
        XCTAssertEqual(try client.hello().op, "welcome")
        try client.send(kind: 2, flags: 1, requestID: 7, payload: Array("stray".utf8))
        try client.sendMessage(["op": "ok"], requestID: 8)
        let refused = try XCTUnwrap(try client.receive())
        XCTAssertEqual(refused.requestID, 8)
        XCTAssertEqual(refused.json?["code"] as? String, "unexpected-message")
        try client.sendMessage(["op": "hello", "version": 1, "client": "again"], requestID: 0)
        XCTAssertEqual(try client.receive()?.json?["code"] as? String, "unexpected-message", "a second hello is refused")
        try client.sendMessage(["op": "list", "pasteboard": "general"], requestID: 9)
        XCTAssertEqual(try client.receive()?.op, "items")
        try assertDaemonServes()
    }

    func testAClientThatNeverReadsIsNotBufferedWithoutBound() async throws {
        let big = Data(repeating: 0x5A, count: 96 << 20)
        try pbOK("copy", "-p", "big", stdin: big)
        let baseline = try residentBytes(of: daemon.process.processIdentifier)

        // Several reads, unbounded credit, and never a byte read back.
        let client = try RawClient(socketPath: sandbox.socketPath)
        XCTAssertEqual(try client.hello().op, "welcome")
        for id: UInt32 in 1...4 {
            try client.sendMessage(["op": "read", "pasteboard": "big", "item": 0, "accept": []], requestID: id)
            try client.sendMessage(["op": "credit", "bytes": Int(Int32.max)], requestID: id)
        }
        try client.sendMessage(["op": "watch", "pasteboard": "general"], requestID: 5)
        // A watcher that does not read must not queue every change either: 200 changes, made
        // through the library on one connection (200 pb processes would cost seconds).
        try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "changes", autoStart: false) { connection in
            let general = Pasteboard(connection: connection)
            for round in 0..<200 {
                var item = ItemProvider()
                item.registerData(Array("change \(round)".utf8), for: .utf8PlainText)
                _ = try await general.setItems([item])
            }
        }
        try pbOK("copy", stdin: Data("precious".utf8))
        // Not a synchronisation: the time the daemon has to fill what it would buffer for the
        // client that does not read, before its memory is measured.
        usleep(500_000)
        let grown = try residentBytes(of: daemon.process.processIdentifier) - baseline
        XCTAssertLessThan(grown, 48 << 20, "the daemon holds at most a bounded amount for a client that does not read (grew \(grown >> 20) MiB for 4 x 96 MiB asked)")
        try assertDaemonServes()
        XCTAssertEqual(try pbOK("paste", "-p", "big").stdout.count, big.count, "others load the same data meanwhile")
        client.close()
    }
}

/// The resident set of process `pid`, in bytes (VmRSS from /proc).
func residentBytes(of pid: Int32) throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kiB = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
    else { throw RawClient.Failure(description: "no VmRSS for \(pid)") }
    return kiB * 1024
}

import Foundation
import Glibc
import XCTest

/// The daemon's configurable limits: each breach gets that client a clear `limit-reached` (or
/// `too-large`) error, and no other client notices.
final class LimitsTests: IntegrationTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    /// A handshaken raw client.
    private func client() throws -> RawClient {
        let client = try RawClient(socketPath: sandbox.socketPath)
        XCTAssertEqual(try client.hello().op, "welcome")
        return client
    }

    private func assertServes(_ client: RawClient, id: UInt32, line: UInt = #line) throws {
        try client.sendMessage(["op": "list", "pasteboard": "general"], requestID: id)
        XCTAssertEqual(try client.receive()?.op, "items", "the client is still served", line: line)
    }

    func testAConnectionOverTheLimitIsRefusedAndTheOthersKeepWorking() throws {
        try restartDaemon(["--max-connections", "3"])
        let held = try (0..<3).map { _ in try client() }
        let refused = try RawClient(socketPath: sandbox.socketPath)
        let reply = try XCTUnwrap(try refused.receive())
        XCTAssertEqual(reply.requestID, 0)
        XCTAssertEqual(reply.json?["code"] as? String, "limit-reached")
        XCTAssertTrue((reply.json?["message"] as? String)?.contains("at most 3 connections") == true, "\(reply.json ?? [:])")
        XCTAssertEqual(try refused.drainUntilClosed(), [])
        for (index, client) in held.enumerated() { try assertServes(client, id: UInt32(index + 1)) }

        held[0].close()
        var accepted: RawClient?
        let deadline = Date().addingTimeInterval(5)
        while accepted == nil, Date() < deadline {
            let next = try RawClient(socketPath: sandbox.socketPath)
            if (try? next.hello())?.op == "welcome" { accepted = next } else { usleep(20_000) }
        }
        XCTAssertNotNil(accepted, "a freed slot is served again")
    }

    func testLoadsBeyondTheLimitPerConnectionFailAloneAndAFreedSlotIsUsable() throws {
        try restartDaemon(["--max-loads-per-connection", "2"])
        try pbOK("copy", stdin: Data(repeating: 9, count: 16 << 20))
        let client = try client()
        // Two reads stall at the end of their flow-control window (nobody grants credit).
        for id: UInt32 in [1, 2] {
            try client.sendMessage(["op": "read", "pasteboard": "general", "item": 0, "accept": []], requestID: id)
        }
        try client.sendMessage(["op": "read", "pasteboard": "general", "item": 0, "accept": []], requestID: 3)
        var refusal: RawClient.Frame?
        while let frame = try client.receive() {
            if frame.requestID == 3, frame.kind == 1, frame.op == "error" { refusal = frame; break }
        }
        XCTAssertEqual(refusal?.json?["code"] as? String, "limit-reached")
        XCTAssertTrue((refusal?.json?["message"] as? String)?.contains("2 loads are already in flight") == true, "\(refusal?.json ?? [:])")
        XCTAssertEqual(try pbOK("paste").stdout.count, 16 << 20, "another client loads as usual")

        try client.sendMessage(["op": "cancel"], requestID: 1)
        var cancelled = false
        while !cancelled, let frame = try client.receive() {
            cancelled = frame.requestID == 1 && frame.op == "error"
        }
        try client.sendMessage(["op": "read", "pasteboard": "general", "item": 0, "accept": []], requestID: 4)
        var started = false
        while !started, let frame = try client.receive() {
            if frame.requestID == 4 { started = frame.op == "representation" || frame.kind == 2 }
        }
        XCTAssertTrue(started, "the cancelled read's slot is free")
    }

    func testAHandshakeNeverFinishedIsClosedWithAClearErrorWhileOthersAreServed() throws {
        try restartDaemon(["--handshake-timeout", "0.3"])
        let silent = try RawClient(socketPath: sandbox.socketPath)
        let bystander = try client()
        let reply = try XCTUnwrap(try silent.receive())
        XCTAssertEqual(reply.json?["code"] as? String, "limit-reached")
        XCTAssertEqual(reply.json?["message"] as? String, "no hello within 0.3 seconds (pasteboardd --handshake-timeout)")
        XCTAssertEqual(try silent.drainUntilClosed(), [])
        try assertServes(bystander, id: 1)
    }

    func testAnIdleConnectionIsClosedButWatchersAndLiveSourcesAreNotIdle() throws {
        try restartDaemon(["--idle-timeout", "0.5"])
        let idle = try client()
        let watcher = try startPB("watch")
        let file = sandbox.path("lazy.txt")
        try Data("lazy".utf8).write(to: URL(fileURLWithPath: file))
        let source = try startPB("copy", "--lazy", "-p", "lazy", file)

        let reply = try XCTUnwrap(try idle.receive())
        XCTAssertEqual(reply.json?["code"] as? String, "limit-reached")
        XCTAssertTrue((reply.json?["message"] as? String)?.hasPrefix("idle for 0.5 seconds") == true, "\(reply.json ?? [:])")
        XCTAssertEqual(try idle.drainUntilClosed(), [])

        usleep(1_000_000)
        XCTAssertEqual(try pbOK("paste", "-p", "lazy").stdoutText, "lazy")
        XCTAssertFalse(source.stderrLines.contains { $0.contains("lost pasteboardd") }, "the live source kept its connection: \(source.stderrLines)")
        try pbOK("copy", stdin: Data("seen".utf8))
        let deadline = Date().addingTimeInterval(10)
        let stdout = { (try? String(contentsOfFile: watcher.stdoutPath, encoding: .utf8)) ?? "" }
        while stdout().split(separator: "\n").count < 2, Date() < deadline { usleep(10_000) }
        XCTAssertEqual(stdout().split(separator: "\n").count, 2, "the watcher still hears changes: \(stdout())")
    }

    func testMoreItemsThanAllowedAreRefusedAndThePreviousContentKept() throws {
        try restartDaemon(["--max-items", "2"])
        try pbOK("copy", stdin: Data("before".utf8))
        for name in ["a", "b", "c"] { try Data(name.utf8).write(to: URL(fileURLWithPath: sandbox.path(name))) }
        let result = try pb("copy", sandbox.path("a"), sandbox.path("b"), sandbox.path("c"))
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("3 items exceed the limit of 2"), result.stderr)
        XCTAssertEqual(try pbOK("paste").stdoutText, "before")
    }

    /// A write whose request fits a frame but whose description (each representation with its
    /// MIME type and size, as `list` and watchers get it) would not is refused whole.
    func testAWriteTooLargeToDescribeInOneFrameIsRefusedAndThePreviousContentKept() throws {
        try restartDaemon(["--max-frame-length", "65536"])
        try pbOK("copy", stdin: Data("before".utf8))
        let client = try client()
        let items: [[String: Any]] = (1...800).map { promise in
            ["representations": [["type": "public.utf8-plain-text", "promise": promise]]]
        }
        try client.sendMessage(["op": "write", "pasteboard": "general", "items": items], requestID: 1)
        let reply = try XCTUnwrap(client.receive())
        XCTAssertEqual(reply.json?["code"] as? String, "too-large", "\(reply.json ?? [:])")
        XCTAssertTrue((reply.json?["message"] as? String)?.contains("more than the 65536-byte frame limit") == true, "\(reply.json ?? [:])")
        try assertServes(client, id: 2)
        XCTAssertEqual(try pbOK("paste").stdoutText, "before")
        try client.sendMessage(["op": "write", "pasteboard": "general", "items": Array(items.prefix(200))], requestID: 3)
        XCTAssertEqual(try client.receive()?.op, "ok", "a smaller write of the same kind is described and accepted")
    }

    func testBadLimitValuesAreUsageErrors() throws {
        for arguments in [["--max-connections", "0"], ["--max-loads-per-connection", "-1"], ["--idle-timeout", "-2"], ["--max-items", "0"]] {
            let result = try runTool("pasteboardd", arguments + ["--socket", sandbox.path("other.sock")], environment: sandbox.environment(), in: sandbox)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
        }
    }
}

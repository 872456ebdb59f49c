import Foundation
import Glibc
import XCTest

/// The daemon driven by hand-made frames: what a client in another language would see.
final class ProtocolTests: IntegrationTestCase {
    func testHandshakeAnnouncesVersionLimitsAndWindow() throws {
        let client = try RawClient(socketPath: sandbox.socketPath)
        let welcome = try client.hello()
        XCTAssertEqual(welcome.kind, 1)
        XCTAssertEqual(welcome.requestID, 0)
        XCTAssertEqual(welcome.op, "welcome")
        XCTAssertEqual(welcome.json?["version"] as? Int, 1)
        XCTAssertEqual(welcome.json?["pid"] as? Int, Int(daemon.process.processIdentifier))
        XCTAssertEqual(welcome.json?["maxFrameLength"] as? Int, 1 << 20)
        XCTAssertEqual(welcome.json?["window"] as? Int, 4 << 20)
    }

    func testEveryToolPrintsTheReleaseTheDaemonAnnouncesInWelcome() throws {
        let welcome = try RawClient(socketPath: sandbox.socketPath).hello()
        let announced = try XCTUnwrap(welcome.json?["daemon"] as? String)
        for tool in ["pb", "gallery", "pasteboardd"] {
            let result = try runTool(tool, ["--version"], environment: sandbox.environment(), in: sandbox)
            XCTAssertEqual(result.status, 0, "\(tool) --version: \(result.stderr)")
            let release = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertFalse(release.isEmpty, "\(tool) --version printed nothing")
            XCTAssertEqual("pasteboardd \(release)", announced, "\(tool) --version")
        }
    }

    func testVersionMismatchIsAClearErrorThenClose() throws {
        let client = try RawClient(socketPath: sandbox.socketPath)
        let reply = try client.hello(version: 99)
        XCTAssertEqual(reply.op, "error")
        XCTAssertEqual(reply.json?["code"] as? String, "version-mismatch")
        XCTAssertTrue((reply.json?["message"] as? String)?.contains("99") == true)
        XCTAssertEqual(try client.drainUntilClosed(), [])
    }

    func testRequestsMayFollowHelloWithoutWaitingForWelcome() throws {
        let client = try RawClient(socketPath: sandbox.socketPath)
        // hello, a write with its bytes (within the 65536 bytes every window allows) and a read,
        // all in one send: the daemon answers hello first, then each request in order.
        let write = try RawClient.message([
            "op": "write", "pasteboard": "general", "items": [["representations": [["type": "public.utf8-plain-text", "size": 9]]]],
        ], requestID: 1)
        let bytes = RawClient.frame(kind: 2, flags: 1, requestID: 1, payload: Array("pipelined".utf8))
        let read = try RawClient.message(["op": "read", "pasteboard": "general", "item": 0, "accept": []], requestID: 2)
        try client.sendRaw(try RawClient.helloMessage() + write + bytes + read)
        let welcome = try XCTUnwrap(try client.receive())
        XCTAssertEqual(welcome.op, "welcome")
        let ok = try XCTUnwrap(try client.receive())
        XCTAssertEqual(ok.op, "ok", "\(ok.json ?? [:])")
        XCTAssertEqual(ok.requestID, 1)
        let header = try XCTUnwrap(try client.receiveSkippingProgress())
        XCTAssertEqual(header.op, "representation")
        XCTAssertEqual(header.requestID, 2)
        let data = try XCTUnwrap(try client.receiveSkippingProgress())
        XCTAssertEqual(String(decoding: data.payload, as: UTF8.self), "pipelined")
    }

    func testARefusedHelloDoesNothingOfWhatFollowedIt() throws {
        try pbOK("copy", stdin: Data("kept".utf8))
        let client = try RawClient(socketPath: sandbox.socketPath)
        let clear = try RawClient.message(["op": "clear", "pasteboard": "general"], requestID: 1)
        try client.sendRaw(try RawClient.helloMessage(version: 99) + clear)
        let reply = try XCTUnwrap(try client.receive())
        XCTAssertEqual(reply.json?["code"] as? String, "version-mismatch")
        XCTAssertEqual(try client.drainUntilClosed(), [], "nothing answers the clear")
        XCTAssertEqual(try pbOK("paste").stdoutText, "kept")
    }

    func testRequestsBeforeHelloAreRefused() throws {
        let client = try RawClient(socketPath: sandbox.socketPath)
        try client.sendMessage(["op": "list", "pasteboard": "general"], requestID: 1)
        let reply = try XCTUnwrap(try client.receive())
        XCTAssertEqual(reply.json?["code"] as? String, "handshake-required")
        XCTAssertEqual(try client.drainUntilClosed(), [])
    }

    func testHugeLengthPrefixClosesOnlyThatConnection() throws {
        let bystander = try RawClient(socketPath: sandbox.socketPath)
        _ = try bystander.hello()
        let client = try RawClient(socketPath: sandbox.socketPath)
        _ = try client.hello()
        try client.sendRaw([0xFF, 0xFF, 0xFF, 0xF0, 1, 0, 0, 0, 0, 1])
        let reply = try XCTUnwrap(try client.receive())
        XCTAssertEqual(reply.requestID, 0)
        XCTAssertEqual(reply.json?["code"] as? String, "frame-too-large")
        XCTAssertEqual(try client.drainUntilClosed(), [])

        try bystander.sendMessage(["op": "list", "pasteboard": "general"], requestID: 5)
        XCTAssertEqual(try bystander.receive()?.op, "items", "other clients notice nothing")
    }

    func testGarbageBytesCloseTheConnectionWithMalformedFrame() throws {
        let client = try RawClient(socketPath: sandbox.socketPath)
        _ = try client.hello()
        try client.sendRaw([0, 0, 0, 8, 7, 0, 0, 0, 0, 1, 0xDE, 0xAD])
        let reply = try XCTUnwrap(try client.receive())
        XCTAssertEqual(reply.json?["code"] as? String, "malformed-frame")
        XCTAssertEqual(try client.drainUntilClosed(), [])
        XCTAssertEqual(try pb("list").status, 0, "the daemon keeps serving")
    }

    func testBadMessagesFailOnlyTheirRequest() throws {
        let client = try RawClient(socketPath: sandbox.socketPath)
        _ = try client.hello()
        try client.send(kind: 1, requestID: 3, payload: Array("{not json".utf8))
        XCTAssertEqual(try client.receive()?.json?["code"] as? String, "malformed-message")
        try client.sendMessage(["op": "teleport"], requestID: 4)
        XCTAssertEqual(try client.receive()?.json?["code"] as? String, "unknown-message")
        try client.sendMessage(["op": "welcome", "version": 1, "daemon": "x", "pid": 1, "maxFrameLength": 1, "window": 1], requestID: 5)
        XCTAssertEqual(try client.receive()?.json?["code"] as? String, "unexpected-message")
        try client.sendMessage(["op": "read", "pasteboard": "general", "item": 0, "accept": ["not a type"]], requestID: 6)
        XCTAssertEqual(try client.receive()?.json?["code"] as? String, "unknown-type")
        try client.sendMessage(["op": "list", "pasteboard": "../etc"], requestID: 7)
        XCTAssertEqual(try client.receive()?.json?["code"] as? String, "invalid-argument")
        try client.sendMessage(["op": "list", "pasteboard": "general"], requestID: 8)
        let items = try XCTUnwrap(try client.receive())
        XCTAssertEqual(items.requestID, 8)
        XCTAssertEqual(items.op, "items", "the connection still works")
    }

    /// A representation that goes over its declared size is refused at the frame that goes
    /// over, before its end: a writer must not fill a stored file past what it declared.
    func testMoreBytesThanDeclaredAreRefusedAtOnceAndThePasteboardKeepsItsContent() throws {
        try pbOK("copy", stdin: Data("kept".utf8))
        let client = try RawClient(socketPath: sandbox.socketPath)
        _ = try client.hello()
        try client.sendMessage([
            "op": "write", "pasteboard": "general", "items": [["representations": [["type": "public.data", "size": 10]]]],
        ], requestID: 1)
        try client.send(kind: 2, requestID: 1, payload: [UInt8](repeating: 7, count: 11))  // no END: more may follow
        let refusal = try XCTUnwrap(try client.receive())
        XCTAssertEqual(refusal.op, "error", "\(refusal.json ?? [:])")
        XCTAssertEqual(refusal.json?["code"] as? String, "invalid-argument")
        XCTAssertEqual(refusal.json?["message"] as? String, "public.data declared 10 bytes but more arrived")
        XCTAssertEqual(try pbOK("paste").stdoutText, "kept")
    }

    func testWriteThenReadFrameByFrame() throws {
        let client = try RawClient(socketPath: sandbox.socketPath)
        _ = try client.hello()
        try client.sendMessage([
            "op": "write", "pasteboard": "general",
            "items": [["representations": [["type": "public.html", "size": 8], ["type": "text/plain"]]]],
        ], requestID: 1)
        try client.send(kind: 2, requestID: 1, payload: Array("<b>".utf8))
        try client.send(kind: 2, flags: 1, requestID: 1, payload: Array("x</b>".utf8))
        try client.send(kind: 2, flags: 1, requestID: 1, payload: Array("x".utf8))
        let ok = try XCTUnwrap(try client.receive())
        XCTAssertEqual(ok.op, "ok", "\(ok.json ?? [:])")
        XCTAssertEqual(ok.json?["changeCount"] as? Int, 1)
        XCTAssertEqual(try pbOK("paste", "-t", "text").stdoutText, "x")

        try client.sendMessage(["op": "read", "pasteboard": "general", "item": 0, "accept": ["public.text"]], requestID: 2)
        let header = try XCTUnwrap(try client.receive())
        XCTAssertEqual(header.op, "representation")
        XCTAssertEqual(header.json?["type"] as? String, "public.html")
        XCTAssertEqual(header.json?["index"] as? Int, 0)
        var body: [UInt8] = []
        while let frame = try client.receiveSkippingProgress() {
            XCTAssertEqual(frame.kind, 2)
            body += frame.payload
            if frame.flags & 1 != 0 { break }
        }
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "<b>x</b>")
    }

    func testDeclaredSizeMismatchFailsTheWriteAndKeepsTheOldContent() throws {
        try pbOK("copy", stdin: Data("old".utf8))
        let client = try RawClient(socketPath: sandbox.socketPath)
        _ = try client.hello()
        try client.sendMessage(["op": "write", "pasteboard": "general", "items": [["representations": [["type": "public.data", "size": 10]]]]], requestID: 1)
        try client.send(kind: 2, flags: 1, requestID: 1, payload: [1, 2, 3])
        XCTAssertEqual(try client.receive()?.json?["code"] as? String, "invalid-argument")
        XCTAssertEqual(try pbOK("paste").stdoutText, "old")
    }

    func testDaemonSendsNoMoreThanTheWindowUntilCreditArrives() throws {
        let size = 6 << 20
        try pbOK("copy", stdin: Data(repeating: 0x41, count: size))
        let client = try RawClient(socketPath: sandbox.socketPath)
        let window = try XCTUnwrap(try client.hello().json?["window"] as? Int)
        try client.sendMessage(["op": "read", "pasteboard": "general", "item": 0, "accept": []], requestID: 9)
        XCTAssertEqual(try client.receive()?.op, "representation")
        var received = 0
        while received < window, let frame = try client.receiveSkippingProgress() {
            received += frame.payload.count
        }
        XCTAssertEqual(received, window, "exactly the window arrives without credit")
        var timeout = timeval(tv_sec: 0, tv_usec: 300_000)
        setsockopt(client.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        XCTAssertThrowsError(try client.receiveSkippingProgress(), "nothing more arrives until credit is granted")

        timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        try client.sendMessage(["op": "credit", "bytes": size], requestID: 9)
        var sawEnd = false
        while !sawEnd, let frame = try client.receiveSkippingProgress() {
            received += frame.payload.count
            sawEnd = frame.flags & 1 != 0
        }
        XCTAssertTrue(sawEnd)
        XCTAssertEqual(received, size)
    }

    func testCancelEndsAWatchWithCancelled() throws {
        let client = try RawClient(socketPath: sandbox.socketPath)
        _ = try client.hello()
        try client.sendMessage(["op": "watch", "pasteboard": "general"], requestID: 4)
        XCTAssertEqual(try client.receive()?.op, "changed")
        try client.sendMessage(["op": "cancel"], requestID: 4)
        let end = try XCTUnwrap(try client.receive())
        XCTAssertEqual(end.requestID, 4)
        XCTAssertEqual(end.json?["code"] as? String, "cancelled")
        try client.sendMessage(["op": "cancel"], requestID: 77)
        try client.sendMessage(["op": "list", "pasteboard": "general"], requestID: 5)
        XCTAssertEqual(try client.receive()?.requestID, 5, "cancel of an unknown request is ignored")
    }

    func testAnotherUserIsDisconnectedEvenWithLoosenedPermissions() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to run a client as another uid") }
        // The daemon accepts connections a moment before it sets its socket's mode (0600) and
        // says "listening": loosen the mode only after that, or the daemon's own chmod undoes it.
        XCTAssertTrue(daemon.waitForLog("listening"), daemon.log)
        chmod(sandbox.root.path, 0o755)
        chmod(sandbox.socketDirectory, 0o777)
        chmod(sandbox.socketPath, 0o777)
        var environment = sandbox.environment()
        environment["XDG_CONFIG_HOME"] = "/nonexistent"
        // The daemon refuses that user at once, before any hello: a raw client of that uid (which
        // checks nothing; /usr/bin/python3, as PATH's may be out of that uid's reach) reads its error.
        let python = "/usr/bin/python3"
        if access(python, X_OK) == 0 {
            let raw = try runTool("/usr/bin/setpriv", [
                "--reuid=65534", "--regid=65534", "--clear-groups", python, "-c",
                "import socket, sys\ns = socket.socket(socket.AF_UNIX)\ns.connect(sys.argv[1])\nreceived = b''\n"
                    + "while chunk := s.recv(65536): received += chunk\nsys.stdout.write(received[10:].decode())",
                sandbox.socketPath,
            ], environment: environment, in: sandbox)
            XCTAssertEqual(raw.status, 0, raw.stderr)
            XCTAssertTrue(raw.stdoutText.contains("permission-denied"), raw.stdoutText)
            XCTAssertTrue(raw.stdoutText.contains("serves uid 0 only"), raw.stdoutText)
        }
        // pb, run as that user, refuses first: the socket's peer runs as uid 0, not as pb's user,
        // so pb sends nothing, and exits as for an unreachable daemon (the quick paste and copy
        // included, which would send their request with the hello).
        for (arguments, stdin) in [(["list"], Data()), (["paste"], Data()), (["copy"], Data("from a stranger".utf8))] {
            let result = try runTool("/usr/bin/setpriv", [
                "--reuid=65534", "--regid=65534", "--clear-groups", Binaries.url("pb").path,
            ] + arguments, stdin: stdin, environment: environment, in: sandbox)
            XCTAssertEqual(result.status, 3, "pb \(arguments[0]): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("runs as uid 0, not as this user (uid 65534)"), "pb \(arguments[0]): \(result.stderr)")
            XCTAssertFalse(result.stdoutText.contains("changeCount"), result.stdoutText)
        }
        XCTAssertTrue(daemon.log.contains("refused connection from another user"), daemon.log)
        XCTAssertTrue(daemon.log.contains("peer.uid=65534"), daemon.log)
    }

    func testCancelStopsAReadAndAnswersCancelled() throws {
        try pbOK("copy", stdin: Data(repeating: 1, count: 6 << 20))
        let client = try RawClient(socketPath: sandbox.socketPath)
        _ = try client.hello()
        try client.sendMessage(["op": "read", "pasteboard": "general", "item": 0, "accept": []], requestID: 3)
        XCTAssertEqual(try client.receive()?.op, "representation")
        try client.sendMessage(["op": "cancel"], requestID: 3)
        var terminal: RawClient.Frame?
        while let frame = try client.receiveSkippingProgress() {
            if frame.kind == 1 { terminal = frame; break }
            XCTAssertEqual(frame.flags & 1, 0, "the read must not complete: it was stopped at the window")
        }
        XCTAssertEqual(terminal?.requestID, 3)
        XCTAssertEqual(terminal?.json?["code"] as? String, "cancelled")
        try client.sendMessage(["op": "list", "pasteboard": "general"], requestID: 3)
        XCTAssertEqual(try client.receive()?.op, "items", "the id is free again after its terminal answer")
    }

    func testARequestOnAnIDInFlightIsFatalNotASecondAnswer() throws {
        let client = try RawClient(socketPath: sandbox.socketPath)
        _ = try client.hello()
        try client.sendMessage(["op": "watch", "pasteboard": "general"], requestID: 8)
        XCTAssertEqual(try client.receive()?.op, "changed")
        try client.sendMessage(["op": "list", "pasteboard": "general"], requestID: 8)
        let frames = try client.drainUntilClosed()
        XCTAssertEqual(frames.last?.requestID, 0)
        XCTAssertEqual(frames.last?.json?["code"] as? String, "duplicate-request")
        XCTAssertFalse(frames.contains { $0.op == "items" })
    }

    func testHugeCreditGrantsDoNotHurtTheDaemon() throws {
        try pbOK("copy", stdin: Data(repeating: 2, count: 5 << 20))
        let client = try RawClient(socketPath: sandbox.socketPath)
        _ = try client.hello()
        try client.sendMessage(["op": "read", "pasteboard": "general", "item": 0, "accept": []], requestID: 1)
        for _ in 0..<3 { try client.sendMessage(["op": "credit", "bytes": Int.max / 2], requestID: 1) }
        var total = 0
        while let frame = try client.receive() {
            total += frame.kind == 2 ? frame.payload.count : 0
            if frame.kind == 2, frame.flags & 1 != 0 { break }
        }
        XCTAssertEqual(total, 5 << 20)
        XCTAssertEqual(try pbOK("paste").stdout.count, 5 << 20, "the daemon is still up")
    }

    func testAnItemListingATypeTwiceIsRefusedAndThePasteboardKept() throws {
        try pbOK("copy", stdin: Data("kept".utf8))
        let client = try RawClient(socketPath: sandbox.socketPath)
        _ = try client.hello()
        let representations = (0..<1500).map { ["type": "com.example.type-number-\($0)"] } + [["type": "com.example.type-number-7"]]
        try client.sendMessage(["op": "write", "pasteboard": "general", "items": [["representations": representations]]], requestID: 1)
        let reply = try XCTUnwrap(try client.receive())
        XCTAssertEqual(reply.json?["code"] as? String, "invalid-argument")
        XCTAssertTrue((reply.json?["message"] as? String)?.contains("lists com.example.type-number-7 twice") == true, "\(String(describing: reply.json))")
        XCTAssertEqual(try pbOK("paste").stdoutText, "kept")
    }

    func testItemsTooManyToDescribeInOneFrameAreRefused() throws {
        let client = try RawClient(socketPath: sandbox.socketPath)
        _ = try client.hello()
        let representations = (0..<2000).map { ["type": "com.example.type-number-\($0)"] }
        let items = (0..<10).map { _ in ["representations": representations] }
        try client.sendMessage(["op": "write", "pasteboard": "general", "items": items], requestID: 1)
        let reply = try XCTUnwrap(try client.receive())
        XCTAssertEqual(reply.json?["code"] as? String, "too-large")
        XCTAssertEqual(try pbOK("list").status, 0, "list keeps working")
    }

    func testAnIDIsFreeTheMomentItsTerminalFrameArrives() throws {
        try pbOK("copy", stdin: Data("reuse".utf8))
        let client = try RawClient(socketPath: sandbox.socketPath)
        _ = try client.hello()
        for round in 0..<300 {
            try client.sendMessage(["op": "read", "pasteboard": "general", "item": 0, "accept": []], requestID: 1)
            var body: [UInt8] = []
            while let frame = try client.receive() {
                XCTAssertEqual(frame.requestID, 1, "round \(round): \(frame.json ?? [:])")
                if frame.kind == 2 { body += frame.payload }
                if frame.kind == 2, frame.flags & 1 != 0 { break }
                if frame.op == "error" { return XCTFail("round \(round): \(frame.json ?? [:])") }
            }
            XCTAssertEqual(String(decoding: body, as: UTF8.self), "reuse")
        }
    }
}

/// A promise served over the raw wire protocol, exactly as pasteboard-protocol(7) describes it.
final class ProduceProtocolTests: IntegrationTestCase {
    private func rawSource(answer: (RawClient, RawClient.Frame) throws -> Void) throws -> ProcessResult {
        let client = try RawClient(socketPath: sandbox.socketPath)
        defer { client.close() }
        _ = try client.hello()
        try client.sendMessage(["op": "write", "pasteboard": "general", "items": [
            ["representations": [["type": "public.utf8-plain-text", "promise": 7]]],
        ]], requestID: 1)
        let ok = try XCTUnwrap(try client.receive())
        XCTAssertEqual(ok.op, "ok", "a write of promises needs no data frames")
        let listed = try XCTUnwrap((listing()["items"] as? [[String: Any]])?.first?["representations"] as? [[String: Any]])
        XCTAssertEqual(listed.first?["lazy"] as? Bool, true)

        let environment = sandbox.environment()
        let sandbox = sandbox!
        let paste = Thread.detachNewThreadWithResult { try runTool("pb", ["paste"], environment: environment, in: sandbox) }
        let produce = try XCTUnwrap(try client.receive())
        XCTAssertEqual(produce.op, "produce")
        XCTAssertGreaterThanOrEqual(produce.requestID, 0x8000_0000, "the daemon's own request ids")
        XCTAssertEqual(produce.json?["promise"] as? Int, 7)
        XCTAssertEqual(produce.json?["type"] as? String, "public.utf8-plain-text")
        try answer(client, produce)
        return try paste.value()
    }

    func testASourceAnswersProduceWithSizeDataAndEndAndHearsProgressThenOK() throws {
        var afterwards: [RawClient.Frame] = []
        let pasted = try rawSource { client, produce in
            try client.sendMessage(["op": "size", "bytes": 11], requestID: produce.requestID)
            try client.send(kind: 2, requestID: produce.requestID, payload: Array("hello ".utf8))
            try client.send(kind: 2, flags: 1, requestID: produce.requestID, payload: Array("world".utf8))
            while let frame = try client.receive() {
                afterwards.append(frame)
                if frame.op == "ok" || frame.op == "error" { break }
            }
        }
        XCTAssertEqual(pasted.status, 0, pasted.stderr)
        XCTAssertEqual(pasted.stdoutText, "hello world")
        XCTAssertEqual(afterwards.last?.op, "ok", "the daemon ends the produce once the destination has every byte")
        let progress = afterwards.filter { $0.op == "progress" }
        XCTAssertEqual(progress.last?.json?["completed"] as? Int, 11)
        XCTAssertEqual(progress.last?.json?["total"] as? Int, 11)
    }

    func testASourceThatCannotProduceFailsTheLoadWithSourceUnavailable() throws {
        let pasted = try rawSource { client, produce in
            try client.sendMessage(["op": "error", "code": "internal", "message": "disk on fire"], requestID: produce.requestID)
        }
        XCTAssertEqual(pasted.status, 1)
        XCTAssertTrue(pasted.stderr.contains("could not produce the data: disk on fire"), pasted.stderr)
    }

    func testASourceProducingOtherThanItDeclaredFailsTheLoad() throws {
        var terminal: RawClient.Frame?
        let pasted = try rawSource { client, produce in
            try client.sendMessage(["op": "size", "bytes": 3], requestID: produce.requestID)
            try client.send(kind: 2, flags: 1, requestID: produce.requestID, payload: Array("four".utf8))
            while let frame = try client.receive() {
                if frame.op == "ok" || frame.op == "error" { terminal = frame; break }
            }
        }
        XCTAssertEqual(pasted.status, 1)
        XCTAssertTrue(pasted.stderr.contains("more than the 3 bytes it declared"), pasted.stderr)
        XCTAssertEqual(terminal?.op, "error")
    }
}

extension Thread {
    /// Runs `body` on a new thread; `value()` waits for its result.
    static func detachNewThreadWithResult<T>(_ body: @escaping @Sendable () throws -> T) -> ThreadResult<T> {
        let result = ThreadResult<T>()
        Thread.detachNewThread { result.set(Result(catching: body)) }
        return result
    }
}

/// The result of a body run on another thread.
final class ThreadResult<T>: @unchecked Sendable {
    // Safe: `result` is written once under `condition` and read under it.
    private let condition = NSCondition()
    private var result: Result<T, any Error>?

    func set(_ value: Result<T, any Error>) {
        condition.lock()
        result = value
        condition.broadcast()
        condition.unlock()
    }

    func value() throws -> T {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return try result!.get()
    }
}

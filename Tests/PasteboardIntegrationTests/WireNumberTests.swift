import Foundation
import Glibc
import XCTest

/// Numbers and member names from the wire, as a hostile or careless client writes them: each is
/// answered with a clear error on its request, and the daemon goes on serving.
final class WireNumberTests: IntegrationTestCase {
    /// A connected client past its handshake.
    private func connectedClient() throws -> RawClient {
        let client = try RawClient(socketPath: sandbox.socketPath)
        XCTAssertEqual(try client.hello().op, "welcome")
        return client
    }

    /// Sends `json` exactly as written on `requestID` (or, with `kind` 2, those bytes as the
    /// last data frame) and returns the answer.
    private func answer(to json: String, kind: UInt8 = 1, requestID: UInt32, on client: RawClient) throws -> RawClient.Frame {
        try client.send(kind: kind, flags: kind == 2 ? 1 : 0, requestID: requestID, payload: Array(json.utf8))
        return try XCTUnwrap(try client.receiveSkippingProgress(), "the daemon closed the connection after \(json)")
    }

    /// The daemon still serves a new connection: `pb copy` then `pb paste` round-trip.
    private func assertDaemonServes(file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(daemon.process.isRunning, "the daemon died", file: file, line: line)
        try pbOK("copy", stdin: Data("still here".utf8))
        XCTAssertEqual(try pbOK("paste").stdoutText, "still here", file: file, line: line)
    }

    func testHugeOrEndlessSecondsAreInvalidArgumentsAndTheDaemonLives() throws {
        let client = try connectedClient()
        let text = #"{"representations":[{"type":"public.utf8-plain-text","size":1}]}"#
        var id: UInt32 = 1
        for seconds in ["1e19", "1e300", "0", "-1", "1000000001"] {
            let write = try answer(to: #"{"op":"write","pasteboard":"general","items":[\#(text)],"expire":\#(seconds)}"#, requestID: id, on: client)
            XCTAssertEqual(write.json?["code"] as? String, "invalid-argument", "expire \(seconds): \(write.json ?? [:])")
            XCTAssertTrue((write.json?["message"] as? String)?.contains("at most 1000000000 seconds") == true, "\(write.json ?? [:])")
            id += 1
            let drag = try answer(to: #"{"op":"drag","items":[\#(text)],"timeout":\#(seconds)}"#, requestID: id, on: client)
            XCTAssertEqual(drag.json?["code"] as? String, "invalid-argument", "timeout \(seconds): \(drag.json ?? [:])")
            id += 1
        }
        // The largest span allowed is taken.
        try client.send(kind: 1, requestID: id, payload: Array(#"{"op":"write","pasteboard":"general","items":[\#(text)],"expire":1000000000}"#.utf8))
        let accepted = try answer(to: "x", kind: 2, requestID: id, on: client)
        XCTAssertEqual(accepted.op, "ok", "\(accepted.json ?? [:])")
        XCTAssertEqual(try pbOK("paste").stdoutText, "x")
        try assertDaemonServes()
    }

    func testIntegersAreReadTheSameWayWhateverTheirSignOrSpelling() throws {
        let client = try connectedClient()
        var id: UInt32 = 1
        for literal in ["-9223372036854775809", "9223372036854775808", "99999999999999999999999"] {
            let reply = try answer(to: #"{"op":"read","pasteboard":"general","item":\#(literal),"accept":[]}"#, requestID: id, on: client)
            XCTAssertEqual(reply.json?["code"] as? String, "malformed-message", "\(literal): \(reply.json ?? [:])")
            XCTAssertTrue((reply.json?["message"] as? String)?.contains("out of range") == true, "\(literal): \(reply.json ?? [:])")
            id += 1
        }
        for literal in ["0.0", "1e0", "0e5", "-0.0"] {
            let reply = try answer(to: #"{"op":"read","pasteboard":"general","item":\#(literal),"accept":[]}"#, requestID: id, on: client)
            XCTAssertEqual(reply.json?["code"] as? String, "malformed-message", "\(literal): \(reply.json ?? [:])")
            XCTAssertTrue((reply.json?["message"] as? String)?.contains("not an integer") == true, "\(literal): \(reply.json ?? [:])")
            id += 1
        }
        // The extremes that fit are read as written: no such item, not a malformed message.
        for literal in ["-9223372036854775808", "9223372036854775807", "-0"] {
            let reply = try answer(to: #"{"op":"read","pasteboard":"general","item":\#(literal),"accept":[]}"#, requestID: id, on: client)
            XCTAssertEqual(reply.json?["code"] as? String, "no-such-item", "\(literal): \(reply.json ?? [:])")
            id += 1
        }
        try assertDaemonServes()
    }

    /// Found by `pasteboard-fuzz requests`: the history added up the sizes sources declared.
    func testDeclaredSizesThatAddUpPastIntMaxAreListedNotTrappedOn() throws {
        let client = try connectedClient()
        let write = try answer(to: #"{"op":"write","pasteboard":"general","items":[{"representations":[{"type":"public.png","promise":1,"size":9223372036854775807},{"type":"public.data","promise":2,"size":9223372036854775807}]}]}"#, requestID: 1, on: client)
        XCTAssertEqual(write.op, "ok", "\(write.json ?? [:])")
        let history = try pbOK("history", "--json").stdoutText
        XCTAssertTrue(history.contains("9223372036854775807"), "the entry's size saturates: \(history)")
        try assertDaemonServes()
    }

    /// The other way: limits a daemon announces are checked before the client sizes its frames
    /// and credit by them (a fake daemon of the user's own, answering hello with odd limits).
    func testAWelcomeWithLimitsOutOfRangeIsRefusedByTheClient() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/impostor_daemon.py").path
        let python = "/usr/bin/python3"
        guard access(python, X_OK) == 0 else { throw XCTSkip("\(python) is missing: the fake daemon is a Python script") }
        for (variable, value, message) in [
            ("IMPOSTOR_WINDOW", "-1", "welcome announces a window of -1"),
            ("IMPOSTOR_WINDOW", "0", "welcome announces a window of 0"),
            ("IMPOSTOR_MAX_FRAME_LENGTH", "9223372036854775807", "welcome announces a maxFrameLength of 9223372036854775807"),
        ] {
            let socket = sandbox.path("fake-\(variable.count)-\(value.count).sock")
            let fake = try ToolProcess(python, [script, socket, "FAKE"], environment: ["PATH": "/usr/bin:/bin", variable: value], in: sandbox)
            defer { fake.stop() }
            XCTAssertNotNil(fake.waitForLine { $0 == "listening" }, "\(fake.stderrLines)")
            var environment = sandbox.environment()
            environment["PASTEBOARD_SOCKET"] = socket
            for arguments in [["paste"], ["list"]] {
                let result = try runTool("pb", arguments, environment: environment, in: sandbox)
                XCTAssertNotEqual(result.status, 0, "pb \(arguments) took \(variable)=\(value)")
                XCTAssertTrue(result.stderr.contains(message), "pb \(arguments): \(result.stderr)")
            }
        }
    }

    func testARepeatedMemberNameIsMalformedAndChangesNothing() throws {
        try pbOK("copy", stdin: Data("keep me".utf8))
        let client = try connectedClient()
        let clear = try answer(to: #"{"op":"list","pasteboard":"general","op":"clear"}"#, requestID: 1, on: client)
        XCTAssertEqual(clear.json?["code"] as? String, "malformed-message", "\(clear.json ?? [:])")
        XCTAssertTrue((clear.json?["message"] as? String)?.contains("'op' appears more than once") == true, "\(clear.json ?? [:])")
        // Deeper down too, and in the messages the daemon reads on its fast path.
        let nested = try answer(
            to: #"{"op":"write","pasteboard":"general","items":[{"representations":[{"type":"public.png","type":"public.utf8-plain-text","size":1}]}]}"#,
            requestID: 2, on: client)
        XCTAssertEqual(nested.json?["code"] as? String, "malformed-message", "\(nested.json ?? [:])")
        let credit = try answer(to: #"{"op":"read","pasteboard":"general","item":0,"item":0,"accept":[]}"#, requestID: 3, on: client)
        XCTAssertEqual(credit.json?["code"] as? String, "malformed-message", "\(credit.json ?? [:])")
        XCTAssertEqual(try pbOK("paste").stdoutText, "keep me")
    }

    func testAHelloMissingAFieldIsMalformedAndAnyOtherFirstFrameNeedsTheHandshake() throws {
        let missing = try RawClient(socketPath: sandbox.socketPath)
        try missing.send(kind: 1, requestID: 0, payload: Array(#"{"op":"hello","version":1}"#.utf8))
        let reply = try XCTUnwrap(try missing.receive())
        XCTAssertEqual(reply.json?["code"] as? String, "malformed-message", "\(reply.json ?? [:])")
        XCTAssertTrue((reply.json?["message"] as? String)?.contains("'client'") == true, "\(reply.json ?? [:])")
        XCTAssertEqual(try missing.drainUntilClosed(), [], "a malformed hello ends the connection")

        for first in [#"{"op":"list","pasteboard":"general"}"#, #"{"op":"no-such-op"}"#, #"{"op":"list"}"#, #"{"op":"read","item":1.5}"#] {
            let client = try RawClient(socketPath: sandbox.socketPath)
            try client.send(kind: 1, requestID: 0, payload: Array(first.utf8))
            let answer = try XCTUnwrap(try client.receive())
            XCTAssertEqual(answer.json?["code"] as? String, "handshake-required", "\(first): \(answer.json ?? [:])")
            XCTAssertEqual(try client.drainUntilClosed(), [])
        }
        try assertDaemonServes()
    }
}

import Foundation
import CPasteboardSystem
import Glibc
import Pasteboard
import PasteboardSystem
import XCTest

/// The client library against a daemon that refuses every connection the moment it accepts it
/// (as pasteboardd refuses another uid, or a connection over its limit): the refusal must
/// reach the caller, whatever the client was doing when it arrived.
final class RefusingDaemonTests: XCTestCase {
    func testARefusalSentBeforeTheHelloReachesTheCaller() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let refusals = 200
        let daemon = try RefusingListener(path: sandbox.path("refusing.sock"), refusals: refusals)
        defer { daemon.stop() }
        for attempt in 1...refusals {
            do {
                try await PasteboardConnection.withConnection(socketPath: daemon.path, clientName: "tests", autoStart: false) { _ in }
                XCTFail("attempt \(attempt): connected to a daemon that refuses everyone")
            } catch PasteboardError.daemon(let code, let message) {
                XCTAssertEqual(code, .permissionDenied, "attempt \(attempt)")
                XCTAssertEqual(message, "pasteboardd serves uid 12345 only", "attempt \(attempt)")
            } catch {
                XCTFail("attempt \(attempt): \(error)")
            }
        }
    }
}

/// A listening socket whose every connection gets a `permission-denied` error frame at once,
/// before anything is read from it, and is closed.
private final class RefusingListener: @unchecked Sendable {
    let path: String
    private let fd: Int32
    private let thread: Thread

    init(path: String, refusals: Int) throws {
        self.path = path
        let fd = pasteboard_unix_socket(path, 16)
        guard fd >= 0 else {
            throw RawClient.Failure(description: "cannot listen on \(path): \(SystemError.current)")
        }
        self.fd = fd
        let refusal = try RawClient.message(
            ["op": "error", "code": "permission-denied", "message": "pasteboardd serves uid 12345 only"], requestID: 0)
        thread = Thread {
            for _ in 0..<refusals {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                _ = refusal.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(client)
            }
        }
        thread.start()
    }

    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}

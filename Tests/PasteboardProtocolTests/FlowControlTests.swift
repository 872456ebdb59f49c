import PasteboardProtocol
import XCTest

final class FlowControlTests: XCTestCase {
    func testReceiverRejectsBytesBeyondTheGrantedWindow() throws {
        var window = ReceiveWindow(window: 100)
        try window.receive(60)
        try window.receive(40)
        XCTAssertThrowsError(try window.receive(1)) { error in
            XCTAssertEqual((error as? ProtocolError)?.code, .flowControl)
        }
    }

    func testReceiverGrantsCreditInBatchesOfHalfTheWindow() throws {
        var window = ReceiveWindow(window: 100)
        try window.receive(100)
        XCTAssertNil(window.consume(30))
        XCTAssertEqual(window.consume(30), 60)
        try window.receive(60)
        XCTAssertThrowsError(try window.receive(1))
    }

    func testSenderWaitsForCreditAndNeverTakesMoreThanGranted() async throws {
        let window = SendWindow(initialCredit: 10)
        let first = try await window.acquire(upTo: 25)
        XCTAssertEqual(first, 10)
        let waiting = Task { try await window.acquire(upTo: 25) }
        while !window.senderIsWaiting { await Task.yield() }
        window.grant(7)
        let second = try await waiting.value
        XCTAssertEqual(second, 7)
    }

    func testFailingTheWindowWakesTheSender() async {
        let window = SendWindow(initialCredit: 0)
        let waiting = Task { try await window.acquire(upTo: 1) }
        while !window.senderIsWaiting { await Task.yield() }
        window.fail(ProtocolError(.cancelled, "cancelled"))
        do {
            _ = try await waiting.value
            XCTFail("acquire should throw after fail")
        } catch {
            XCTAssertEqual((error as? ProtocolError)?.code, .cancelled)
        }
    }

    func testCancellingTheSendingTaskEndsTheWait() async {
        let window = SendWindow(initialCredit: 0)
        let waiting = Task { try await window.acquire(upTo: 1) }
        while !window.senderIsWaiting { await Task.yield() }
        waiting.cancel()
        let result = await waiting.result
        XCTAssertThrowsError(try result.get())
    }
}

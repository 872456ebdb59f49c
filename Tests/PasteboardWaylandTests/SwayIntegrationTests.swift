import TestSupport
import Foundation
import Glibc
import PasteboardWayland
import XCTest

/// The reader against a real compositor (headless sway, which offers zwlr data control v2) and
/// the real peer tool, wl-copy.
final class SwayIntegrationTests: XCTestCase {
    private var sway: HeadlessSway!

    override func setUpWithError() throws {
        sway = try HeadlessSway()
    }

    override func tearDown() {
        sway?.stop()
    }

    func testTextCopiedWithWlCopyIsReadWithItsMIMETypes() async throws {
        let reader = try SelectionReader(socketPath: sway.socketPath)
        defer { reader.close() }
        XCTAssertEqual(reader.dataControlProtocol, .wlr)
        XCTAssertTrue(reader.hasPrimarySelection)
        XCTAssertNotNil(reader.seatName)
        let text = Array("héllo from wl-copy\n".utf8)
        _ = try sway.copy(text)
        let offered = await asyncEventually { reader.offer()?.mimeTypes.contains("text/plain;charset=utf-8") == true }
        XCTAssertTrue(offered, "no offer: \(String(describing: reader.offer()))")
        XCTAssertEqual(reader.offer()?.mimeTypes.first, "text/plain")
        let utf8 = try await reader.readAll("text/plain;charset=utf-8")
        XCTAssertEqual(utf8, text)
        let x11 = try await reader.readAll("UTF8_STRING")
        XCTAssertEqual(x11, text)
        await XCTAssertThrowsErrorAsync(try await reader.readAll("image/png")) {
            guard case .mimeTypeNotOffered("image/png", _)? = $0 as? WaylandError else { return XCTFail("\($0)") }
        }
    }

    func testTwentyMiBOfRandomBytesArriveByteIdenticalInChunks() async throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<(20 << 20) / 8).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64) { Array($0) } }
        let reader = try SelectionReader(socketPath: sway.socketPath)
        defer { reader.close() }
        _ = try sway.copy(bytes, ["--type", "application/octet-stream"])
        let offered = await asyncEventually { reader.offer()?.mimeTypes == ["application/octet-stream"] }
        XCTAssertTrue(offered, "no offer: \(String(describing: reader.offer()))")
        var received: [UInt8] = []
        received.reserveCapacity(bytes.count)
        var chunks = 0
        let start = ContinuousClock.now
        let count = try await reader.read("application/octet-stream", from: try XCTUnwrap(reader.offer()), timeout: .seconds(10)) {
            received += $0
            chunks += 1
        }
        print("20 MiB through the pipe in \(ContinuousClock.now - start), \(chunks) chunks")
        XCTAssertEqual(count, bytes.count)
        XCTAssertTrue(received == bytes, "the bytes differ")
        XCTAssertGreaterThan(chunks, 1)
    }

    func testPrimarySelectionFromWlCopyP() async throws {
        let reader = try SelectionReader(socketPath: sway.socketPath)
        defer { reader.close() }
        _ = try sway.copy(Array("selected with the mouse".utf8), ["--primary"])
        let offered = await asyncEventually { reader.offer(.primary) != nil }
        XCTAssertTrue(offered)
        let primary = try await reader.readAll("text/plain", selection: .primary)
        XCTAssertEqual(primary, Array("selected with the mouse".utf8))
        XCTAssertNil(reader.offer(.clipboard))
    }

    func testAnOwnerThatNeverAnswersTimesOutAndOneKilledMidWaitIsReportedGone() async throws {
        let reader = try SelectionReader(socketPath: sway.socketPath)
        defer { reader.close() }
        let owner = try sway.copy(Array("never sent".utf8))
        let offered = await asyncEventually { reader.offer() != nil }
        XCTAssertTrue(offered)
        let offer = try XCTUnwrap(reader.offer())
        kill(owner, SIGSTOP)  // it neither writes nor closes

        let clock = ContinuousClock()
        var start = clock.now
        await XCTAssertThrowsErrorAsync(try await reader.read("text/plain", from: offer, timeout: .milliseconds(300)) { _ in }) {
            XCTAssertEqual($0 as? WaylandError, .transferTimedOut(mimeType: "text/plain", bytesReceived: 0))
        }
        XCTAssertLessThan(clock.now - start, .seconds(3))

        start = clock.now
        let reading = Task { try await reader.read("text/plain", from: offer, timeout: .seconds(20)) { _ in } }
        try await Task.sleep(for: .milliseconds(300))
        kill(owner, SIGKILL)
        await XCTAssertThrowsErrorAsync(try await reading.value) {
            XCTAssertEqual($0 as? WaylandError, .ownerGone(mimeType: "text/plain"))
        }
        XCTAssertLessThan(clock.now - start, .seconds(10))
        let cleared = await asyncEventually { reader.offer() == nil }
        XCTAssertTrue(cleared)
    }

    func testCancellingAReadStopsTheWait() async throws {
        let reader = try SelectionReader(socketPath: sway.socketPath)
        defer { reader.close() }
        let owner = try sway.copy(Array("stopped".utf8))
        let offered = await asyncEventually { reader.offer() != nil }
        XCTAssertTrue(offered)
        let offer = try XCTUnwrap(reader.offer())
        kill(owner, SIGSTOP)
        let start = ContinuousClock.now
        let reading = Task { try await reader.read("text/plain", from: offer, timeout: .seconds(30)) { _ in } }
        try await Task.sleep(for: .milliseconds(200))
        reading.cancel()
        await XCTAssertThrowsErrorAsync(try await reading.value) { XCTAssertTrue($0 is CancellationError, "\($0)") }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5))
    }

    func testANewCopyReachesTheChangeObserver() async throws {
        let reader = try SelectionReader(socketPath: sway.socketPath)
        defer { reader.close() }
        let changes = reader.changes()
        _ = try sway.copy(Array("first".utf8))
        _ = try await nextOffer(in: changes)
        let first = try await reader.readAll("text/plain")
        XCTAssertEqual(first, Array("first".utf8))

        _ = try sway.copy(Array("second".utf8), ["--type", "text/html"])
        let second = try await nextOffer(in: changes)
        XCTAssertEqual(second.mimeTypes.first, "text/html")
        XCTAssertEqual(reader.offer(), second)
        let html = try await reader.readAll("text/html")
        XCTAssertEqual(html, Array("second".utf8))
    }

    /// The next change that brings an offer, within 10 seconds.
    private func nextOffer(in changes: AsyncStream<SelectionChange>) async throws -> SelectionOffer {
        try await withThrowingTaskGroup(of: SelectionOffer?.self) { group in
            group.addTask {
                for await change in changes where change.kind == .clipboard {
                    if let offer = change.offer { return offer }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                return nil
            }
            defer { group.cancelAll() }
            let first = try await group.next() ?? nil
            return try XCTUnwrap(first, "no new offer observed")
        }
    }
}

/// XCTAssertThrowsError for an async expression.
func XCTAssertThrowsErrorAsync<T>(
    _ expression: @autoclosure () async throws -> T,
    file: StaticString = #filePath, line: UInt = #line,
    _ handler: (any Error) -> Void = { _ in }
) async {
    do {
        _ = try await expression()
        XCTFail("no error thrown", file: file, line: line)
    } catch {
        handler(error)
    }
}

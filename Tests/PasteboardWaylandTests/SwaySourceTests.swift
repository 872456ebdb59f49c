import TestSupport
import Foundation
import Glibc
import PasteboardWayland
import Synchronization
import XCTest

/// Our data source against a real compositor (headless sway, zwlr data control v2) and the real
/// peer tools: wl-paste reads what we offer, wl-copy takes the selection from us.
final class SwaySourceTests: XCTestCase {
    private var sway: HeadlessSway!
    private let textTypes = ["text/plain;charset=utf-8", "text/plain", "UTF8_STRING"]

    override func setUpWithError() throws {
        sway = try HeadlessSway()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wl-paste") else {
            throw XCTSkip("/usr/bin/wl-paste is not installed (.ci/run installs wl-clipboard)")
        }
    }

    override func tearDown() {
        sway?.stop()
    }

    func testWlPasteListsOurTypesAndPastesEachByteIdentical() async throws {
        let reader = try SelectionReader(socketPath: sway.socketPath)
        defer { reader.close() }
        let text = Array("héllo from our source".utf8)
        var png: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
        png += (0..<200_000).map { _ in UInt8.random(in: 0...255) }
        let contents = Dictionary(uniqueKeysWithValues: textTypes.map { ($0, text) } + [("image/png", png)])
        let source = try SelectionSource(offering: textTypes + ["image/png"], on: reader, provider: Self.serve(contents))
        let log = EventLog(source)
        try await ownSelection(reader, source)

        let listed = try await sway.paste(["-l"])
        XCTAssertEqual(listed.status, 0)
        XCTAssertEqual(String(decoding: listed.output, as: UTF8.self).split(separator: "\n").map(String.init), textTypes + ["image/png"])
        let plain = try await sway.paste(["-n", "-t", "text/plain"])
        XCTAssertEqual(plain.output, text)
        let image = try await sway.paste(["-n", "-t", "image/png"])
        XCTAssertEqual(image.status, 0)
        XCTAssertTrue(image.output == png, "the PNG differs: \(image.output.count) bytes of \(png.count)")
        let utf8 = try await sway.paste(["-n", "-t", "UTF8_STRING"])
        XCTAssertEqual(utf8.output, text)

        let ended = await asyncEventually { log.completed.count == 3 }
        XCTAssertTrue(ended, "\(log.all)")
        XCTAssertEqual(Set(log.completed.map(\.mimeType)), ["text/plain", "image/png", "UTF8_STRING"])
        XCTAssertEqual(log.completed.first { $0.mimeType == "image/png" }?.bytesWritten, png.count)
        XCTAssertFalse(source.isCancelled)
    }

    func testTwentyMiBThroughWlPasteByteIdentical() async throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<(20 << 20) / 8).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64) { Array($0) } }
        let reader = try SelectionReader(socketPath: sway.socketPath)
        defer { reader.close() }
        let source = try SelectionSource(offering: ["application/octet-stream"], on: reader, provider: Self.serve(["application/octet-stream": bytes]))
        try await ownSelection(reader, source)
        let start = ContinuousClock.now
        let pasted = try await sway.paste(["-n", "-t", "application/octet-stream"])
        print("20 MiB from our source through wl-paste in \(ContinuousClock.now - start)")
        XCTAssertEqual(pasted.status, 0)
        XCTAssertEqual(pasted.output.count, bytes.count)
        XCTAssertTrue(pasted.output == bytes, "the bytes differ")
    }

    func testPrimarySelectionThroughWlPasteP() async throws {
        let reader = try SelectionReader(socketPath: sway.socketPath)
        defer { reader.close() }
        let text = Array("selected, not copied".utf8)
        let source = try SelectionSource(offering: ["text/plain"], as: .primary, on: reader, provider: Self.serve(["text/plain": text]))
        let owned = await asyncEventually { reader.offer(.primary)?.mimeTypes == ["text/plain"] }
        XCTAssertTrue(owned)
        let primary = try await sway.paste(["-p", "-n", "-t", "text/plain"])
        XCTAssertEqual(primary.output, text)
        XCTAssertNil(reader.offer(.clipboard))
        XCTAssertFalse(source.isCancelled)
    }

    func testWlCopyTakingTheSelectionCancelsOurSource() async throws {
        let reader = try SelectionReader(socketPath: sway.socketPath)
        defer { reader.close() }
        let source = try SelectionSource(offering: ["text/plain"], on: reader, provider: Self.serve(["text/plain": Array("ours".utf8)]))
        let log = EventLog(source)
        try await ownSelection(reader, source)
        _ = try sway.copy(Array("theirs".utf8))
        let cancelled = await asyncEventually { source.isCancelled }
        XCTAssertTrue(cancelled)
        let reported = await asyncEventually { log.cancelled }
        XCTAssertTrue(reported, "\(log.all)")
        let pasted = try await sway.paste(["-n", "-t", "text/plain"])
        XCTAssertEqual(pasted.output, Array("theirs".utf8))
    }

    func testAReaderThatClosesEarlyDoesNotStopTheNextSend() async throws {
        let big = [UInt8](repeating: 0x61, count: 4 << 20)
        let reader = try SelectionReader(socketPath: sway.socketPath)
        defer { reader.close() }
        let source = try SelectionSource(offering: ["text/plain", "application/octet-stream"], on: reader,
                                         provider: Self.serve(["text/plain": Array("still here".utf8), "application/octet-stream": big]))
        let log = EventLog(source)
        try await ownSelection(reader, source)
        let head = try await sway.shell("wl-paste -n -t application/octet-stream | head -c 10")
        XCTAssertEqual(head.output, Array(repeating: 0x61, count: 10))
        let closed = await asyncEventually { log.ended.contains { if case .readerClosed = $0.outcome { true } else { false } } }
        XCTAssertTrue(closed, "\(log.all)")

        let next = try await sway.paste(["-n", "-t", "text/plain"])
        XCTAssertEqual(next.output, Array("still here".utf8))
        let whole = try await sway.paste(["-n", "-t", "application/octet-stream"])
        XCTAssertTrue(whole.output == big)
        XCTAssertFalse(source.isCancelled)
    }

    func testAStalledReaderIsAbandonedWhileOtherSendsGoOn() async throws {
        let big = [UInt8](repeating: 0x62, count: 4 << 20)
        let reader = try SelectionReader(socketPath: sway.socketPath)
        defer { reader.close() }
        let source = try SelectionSource(offering: ["text/plain", "application/octet-stream"], on: reader, stallTimeout: .milliseconds(500),
                                         provider: Self.serve(["text/plain": Array("quick".utf8), "application/octet-stream": big]))
        let log = EventLog(source)
        try await ownSelection(reader, source)
        // sleep never reads: wl-paste's stdout fills, then our pipe to it.
        let sway = self.sway!
        let stalled = Task { try await sway.shell("wl-paste -n -t application/octet-stream | sleep 2") }
        let started = await asyncEventually { source.transfersInFlight == 1 }
        XCTAssertTrue(started)
        let start = ContinuousClock.now
        let quick = try await sway.paste(["-n", "-t", "text/plain"])
        XCTAssertEqual(quick.output, Array("quick".utf8))
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(3), "a stalled send holds up no other")
        let abandoned = await asyncEventually(timeout: 10) {
            log.ended.contains { report in
                if case .failed(let error) = report.outcome, case .readerStalled? = error as? WaylandError { true } else { false }
            }
        }
        XCTAssertTrue(abandoned, "\(log.all)")
        _ = try await stalled.value
    }

    // MARK: - Helpers

    /// A provider that writes `contents[mimeType]` in 64 KiB pieces.
    private static func serve(_ contents: [String: [UInt8]]) -> SelectionSource.Provider {
        { transfer in
            let bytes = contents[transfer.mimeType] ?? []
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + 65536, bytes.count)
                try await transfer.write(bytes[offset..<end])
                offset = end
            }
        }
    }

    /// Waits until the compositor made our source the selection (the reader sees our offer).
    private func ownSelection(_ reader: SelectionReader, _ source: SelectionSource) async throws {
        let owned = await asyncEventually { reader.offer()?.mimeTypes == source.mimeTypes }
        XCTAssertTrue(owned, "our source never became the selection: \(String(describing: reader.offer()))")
    }
}

/// Collects a source's events as they come.
final class EventLog: Sendable {
    private let events = Mutex<[SelectionSource.Event]>([])

    init(_ source: SelectionSource) {
        let stream = source.events()
        Task { [self] in
            for await event in stream { self.events.withLock { $0.append(event) } }
        }
    }

    var all: [SelectionSource.Event] { events.withLock { $0 } }
    var cancelled: Bool { all.contains { if case .cancelled = $0 { true } else { false } } }
    var ended: [SelectionSource.TransferReport] { all.compactMap { if case .transferEnded(let report) = $0 { report } else { nil } } }
    var completed: [SelectionSource.TransferReport] { ended.filter(\.outcome.isCompleted) }
}

import Synchronization
@testable import PasteboardX11
import TestSupport
import XCTest

/// The selection owner's pure parts: how data is cut from the server's maximum request length,
/// the plumbing answers byte for byte, MULTIPLE pairs read with every malformed form refused,
/// and the chunk writer's backpressure.
final class SelectionOwnerPlanningTests: XCTestCase {
    private func le32(_ value: UInt32) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 24)] }

    func testChunkSizeComesFromTheMaximumRequestLength() throws {
        // Xvfb and Xorg without BIG-REQUESTS: 65535 units of 4 bytes, less ChangeProperty's 24.
        let xvfb = try SelectionTransferSizing(maximumRequestBytes: 65535 * 4)
        XCTAssertEqual(xvfb.chunkBytes, 262_140 - 24)
        XCTAssertEqual(xvfb.bufferBytes, 2 * (262_140 - 24))
        // The protocol's minimum of 4096 bytes.
        let smallest = try SelectionTransferSizing(maximumRequestBytes: 4096)
        XCTAssertEqual(smallest.chunkBytes, 4096 - 24)
        XCTAssertThrowsError(try SelectionTransferSizing(maximumRequestBytes: 4092))
        XCTAssertThrowsError(try SelectionTransferSizing(maximumRequestBytes: 0))
        XCTAssertThrowsError(try SelectionTransferSizing(maximumRequestBytes: -4))
        // A preferred chunk is honoured below the limit, never above it.
        XCTAssertEqual(try SelectionTransferSizing(maximumRequestBytes: 65535 * 4, preferredChunkBytes: 1000).chunkBytes, 1000)
        XCTAssertEqual(try SelectionTransferSizing(maximumRequestBytes: 4096, preferredChunkBytes: 1 << 20).chunkBytes, 4072)
        XCTAssertThrowsError(try SelectionTransferSizing(maximumRequestBytes: 65535 * 4, preferredChunkBytes: 0))
        // Every chunk fits one request: header + data padded to 4 ≤ the maximum.
        for units in [1024, 1025, 4097, 65535] {
            let sizing = try SelectionTransferSizing(maximumRequestBytes: units * 4)
            let request = try X11Request.changeProperty(window: WindowID(1), property: Atom(2), type: Atom(3), format: 8, data: [UInt8](repeating: 7, count: sizing.chunkBytes))
            XCTAssertEqual(request.bytes.count, units * 4)
        }
    }

    func testBigRequestsRaiseTheChunkToItsDefaultCap() throws {
        // Xvfb and Xorg with BIG-REQUESTS: 4194303 units (16 MiB); chunks stop at 1 MiB, as xclip's.
        let big = try SelectionTransferSizing(maximumRequestBytes: 4_194_303 * 4)
        XCTAssertEqual(big.chunkBytes, 1 << 20)
        XCTAssertEqual(big.chunkBytes, SelectionTransferSizing.defaultMaximumChunkBytes)
        XCTAssertEqual(big.requestCount(byteCount: 256 << 20), 1 + 256 + 1, "256 MiB in 256 chunks, not 1025")
        // A larger chunk may be asked for, up to what the extended form fits.
        XCTAssertEqual(try SelectionTransferSizing(maximumRequestBytes: 4_194_303 * 4, preferredChunkBytes: 4 << 20).chunkBytes, 4 << 20)
        XCTAssertEqual(try SelectionTransferSizing(maximumRequestBytes: 4_194_303 * 4, preferredChunkBytes: .max).chunkBytes, 4_194_303 * 4 - 28)
        // Just over the core limit: the extended form's extra word is left room for.
        for units in [65536, 65537, 70000, 4_194_303] {
            let sizing = try SelectionTransferSizing(maximumRequestBytes: units * 4, preferredChunkBytes: .max)
            let request = try X11Request.changeProperty(window: WindowID(1), property: Atom(2), type: Atom(3), format: 8, data: [UInt8](repeating: 7, count: sizing.chunkBytes))
            // At most the maximum; at 65536 units the chunk's request still fits the core form
            // (65535 units), so it is the extra word short of it.
            XCTAssertLessThanOrEqual(request.bytes.count, units * 4, "\(units) units")
            XCTAssertGreaterThanOrEqual(request.bytes.count, units * 4 - 4, "\(units) units")
            XCTAssertEqual(X11Request.announcedBytes(request.bytes), request.bytes.count)
        }
    }

    func testWholeOrIncrementalIsDecidedFromWhatIsBuffered() throws {
        let sizing = try SelectionTransferSizing(maximumRequestBytes: 4096)  // 4072-byte chunks
        XCTAssertEqual(sizing.decide(buffered: 0, finished: false), .wait)
        XCTAssertEqual(sizing.decide(buffered: 0, finished: true), .whole, "empty data is one empty property")
        XCTAssertEqual(sizing.decide(buffered: 4072, finished: false), .wait, "it may still end within one chunk")
        XCTAssertEqual(sizing.decide(buffered: 4072, finished: true), .whole)
        XCTAssertEqual(sizing.decide(buffered: 4073, finished: false), .incremental)
        XCTAssertEqual(sizing.decide(buffered: 4073, finished: true), .incremental)
        XCTAssertEqual(sizing.incrementalSizeBound(buffered: 4073), 4073)
        XCTAssertEqual(sizing.incrementalSizeBound(buffered: Int(UInt32.max) + 10), UInt32.max, "clamped to the property's 32 bits")
        XCTAssertEqual(sizing.requestCount(byteCount: 4072), 1)
        XCTAssertEqual(sizing.requestCount(byteCount: 4073), 1 + 2 + 1, "header, a full and a partial chunk, the end")
        let xvfb = try SelectionTransferSizing(maximumRequestBytes: 65535 * 4)
        XCTAssertEqual(xvfb.requestCount(byteCount: 20 << 20), 1 + 81 + 1, "20 MiB in 81 chunks of 262116 bytes")
    }

    func testTargetsAndTimestampAnswers() {
        let targets = SelectionReplyEncoding.targets(offered: [Atom(300), Atom(301), Atom(300), Atom(200)], targets: Atom(200), timestamp: Atom(201), multiple: Atom(202))
        XCTAssertEqual(targets, [Atom(200), Atom(201), Atom(202), Atom(300), Atom(301)], "plumbing first, each once, the owner's order kept")
        XCTAssertEqual(SelectionReplyEncoding.atomList([Atom(0x0102_0304), Atom(5)]), [4, 3, 2, 1, 5, 0, 0, 0])
        XCTAssertEqual(SelectionReplyEncoding.atomList([]), [])
        XCTAssertEqual(SelectionReplyEncoding.timestamp(0xdead_beef), le32(0xdead_beef))
    }

    func testMultiplePairsAreReadAndWrittenBack() throws {
        let atomPair = Atom(250)
        let data = le32(10) + le32(11) + le32(12) + le32(13)
        let pairs = try SelectionReplyEncoding.atomPairs(PropertyValue(type: atomPair, format: 32, bytesAfter: 0, data: data), atomPair: atomPair)
        XCTAssertEqual(pairs, [AtomPair(target: Atom(10), property: Atom(11)), AtomPair(target: Atom(12), property: Atom(13))])
        XCTAssertEqual(try SelectionReplyEncoding.atomPairs(PropertyValue(type: .atom, format: 32, bytesAfter: 0, data: data), atomPair: atomPair).count, 2, "ATOM from older clients")
        var refused = pairs
        refused[1].property = .none
        XCTAssertEqual(SelectionReplyEncoding.encodeAtomPairs(refused), le32(10) + le32(11) + le32(12) + le32(0))
        XCTAssertEqual(try SelectionReplyEncoding.atomPairs(PropertyValue(type: atomPair, format: 32, bytesAfter: 0, data: []), atomPair: atomPair), [])

        let malformed: [(PropertyValue, String)] = [
            (PropertyValue(type: .none, format: 0, bytesAfter: 0, data: []), "missing"),
            (PropertyValue(type: .string, format: 32, bytesAfter: 0, data: data), "type"),
            (PropertyValue(type: atomPair, format: 8, bytesAfter: 0, data: data), "format"),
            (PropertyValue(type: atomPair, format: 32, bytesAfter: 0, data: le32(10) + le32(11) + le32(12)), "odd count"),
            (PropertyValue(type: atomPair, format: 32, bytesAfter: 0, data: data + [1, 2]), "partial item"),
            (PropertyValue(type: atomPair, format: 32, bytesAfter: 8, data: data), "more than read"),
            (PropertyValue(type: atomPair, format: 32, bytesAfter: 0, data: [UInt8](repeating: 1, count: 8 * 4097)), "too many pairs"),
        ]
        for (value, what) in malformed {
            XCTAssertThrowsError(try SelectionReplyEncoding.atomPairs(value, atomPair: atomPair), what) { error in
                guard case .malformedFromServer = error as? X11Error else { return XCTFail("\(what): \(error)") }
            }
        }
    }

    func testOwnerRequestsAndDestroyNotifyEncoding() throws {
        XCTAssertEqual(X11Request.changeEventMask(WindowID(0x0040_0002), eventMask: EventMask.propertyChange | EventMask.structureNotify).bytes,
                       [2, 0, 4, 0] + le32(0x0040_0002) + le32(0x800) + le32(0x0042_0000))
        var packet: [UInt8] = [17 | 0x80, 0, 9, 0] + le32(0x111) + le32(0x222)
        packet += [UInt8](repeating: 0, count: 32 - packet.count)
        XCTAssertEqual(try X11Event.decode(packet[...]), .destroyNotify(.init(event: WindowID(0x111), window: WindowID(0x222))))
        XCTAssertThrowsError(try X11Event.decode(packet.prefix(31)))
    }

    /// Storage that counts how many of its kind are alive.
    private final class TrackedBytes: ByteStorage {
        static let alive = Mutex(0)
        let bytes: [UInt8]
        init(_ count: Int) {
            bytes = [UInt8](repeating: 7, count: count)
            Self.alive.withLock { $0 += 1 }
        }
        deinit { Self.alive.withLock { $0 -= 1 } }
        var count: Int { bytes.count }
        func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result { try bytes.withUnsafeBytes(body) }
    }

    func testATakenPieceIsLetGoWhileTheWriterLivesOn() async throws {
        let writer = SelectionChunkWriter(capacity: 8 << 20, wakeAbove: 1 << 20, wakeup: try X11Wakeup())
        for _ in 0..<3 { try await writer.write(TrackedBytes(1 << 20)) }
        XCTAssertEqual(TrackedBytes.alive.withLock { $0 }, 3)
        for _ in 0..<2 { _ = writer.take(upTo: 1 << 20) }
        // The pieces sent are released at once (they stayed listed until a compaction, up to 64
        // of them: a 256 MiB export's bridge held 85-96 MiB), the one still buffered is kept.
        XCTAssertEqual(TrackedBytes.alive.withLock { $0 }, 1)
        XCTAssertEqual(writer.snapshot.buffered, 1 << 20)
    }

    func testAChunkOfManySmallWritesIsAFewRunsWithEveryByteInOrder() async throws {
        let writer = SelectionChunkWriter(capacity: 1 << 20, wakeAbove: 1 << 20, wakeup: try X11Wakeup())
        for byte in 0..<1000 { try await writer.write([UInt8(byte % 251)]) }
        let chunk = writer.take(upTo: 600)
        XCTAssertEqual(chunk.count, SelectionChunkWriter.maximumRuns, "a provider writing a byte at a time makes no request of 600 pieces")
        XCTAssertEqual(chunk.joined, (0..<600).map { UInt8($0 % 251) })
        XCTAssertEqual(writer.take(upTo: 1000).joined, (600..<1000).map { UInt8($0 % 251) })
        XCTAssertEqual(writer.snapshot.buffered, 0)
        let request = try X11Request.changeProperty(window: WindowID(1), property: Atom(2), type: Atom(3), format: 8, runs: chunk)
        XCTAssertEqual(request, try X11Request.changeProperty(window: WindowID(1), property: Atom(2), type: Atom(3), format: 8, data: chunk.joined),
                       "a request of runs writes the bytes of the same request made of one array")
    }

    func testTheChunkWriterWaitsForRoomAndThrowsOnceAbandoned() async throws {
        let writer = SelectionChunkWriter(capacity: 10, wakeAbove: 5, wakeup: try X11Wakeup())
        try await writer.write([1, 2, 3, 4, 5, 6])
        XCTAssertEqual(writer.snapshot.buffered, 6)
        let second = Task { try await writer.write([7, 8, 9, 10, 11, 12]) }  // 12 > 10: waits
        let buffered = await asyncEventually { writer.snapshot.buffered == 12 }
        XCTAssertTrue(buffered, "the waiting write's bytes are buffered: \(writer.snapshot.buffered)")
        XCTAssertEqual(writer.take(upTo: 4).joined, [1, 2, 3, 4], "pieces split")
        try await second.value
        let rest = writer.take(upTo: 100)
        XCTAssertEqual(rest.joined, [5, 6, 7, 8, 9, 10, 11, 12], "pieces taken in order")
        XCTAssertEqual(rest.map(\.count), [2, 6], "each piece as it was written, the first one's rest after the split")
        writer.finish()
        XCTAssertTrue(writer.snapshot.finished)

        let abandoned = SelectionChunkWriter(capacity: 4, wakeAbove: 2, wakeup: try X11Wakeup())
        let blocked = Task { try await abandoned.write([UInt8](repeating: 0, count: 8)) }
        let waiting = await asyncEventually { abandoned.snapshot.buffered == 8 }
        XCTAssertTrue(waiting, "the write is in and waits for room")
        abandoned.abandon(reason: "the requestor went away")
        do {
            try await blocked.value
            XCTFail("a blocked write must throw once abandoned")
        } catch let error as SelectionTransferAbandoned {
            XCTAssertEqual(error.reason, "the requestor went away")
        }
        do {
            try await abandoned.write([1])
            XCTFail("a later write must throw")
        } catch is SelectionTransferAbandoned {}
        XCTAssertEqual(abandoned.snapshot.buffered, 0)
    }
}

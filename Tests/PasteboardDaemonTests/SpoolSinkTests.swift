import Foundation
import NIOCore
@testable import PasteboardDaemon
import PasteboardProtocol
import XCTest

/// A spool writes the bytes as they come to a file in `data/`, makes it durable in the order
/// that keeps every record naming it valid, and leaves nothing behind when it fails or is
/// abandoned.
final class SpoolSinkTests: SpoolTestCase {
    private func system(_ recorder: SpoolRecorder, change: (inout SpoolSystem) -> Void = { _ in }) -> SpoolSystem {
        var system = SpoolSystem.live
        system.observe = { recorder.observe($0) }
        change(&system)
        return system
    }

    /// Appends `pieces` and finishes the spool.
    private func spool(_ pieces: [[UInt8]], in store: SpoolStore, durable: Bool = true, recorder: SpoolRecorder) async throws -> SpoolFile {
        let sink = try store.sink(durable: durable, expected: pieces.reduce(0) { $0 + $1.count }) { recorder.grant($0) }
        for piece in pieces { try sink.append(ByteBuffer(bytes: piece)) }
        return try await sink.finish()
    }

    func testAFinishedSpoolHoldsTheBytesAndIsSyncedThenNamedThenItsDirectorySynced() async throws {
        let recorder = SpoolRecorder()
        let store = fixture.store(system(recorder))
        let pieces = (0..<5).map { SpoolFixture.pattern(100_000, seed: UInt8($0)) }
        let sink = try store.sink(durable: true, expected: 500_000) { recorder.grant($0) }
        for piece in pieces { try sink.append(ByteBuffer(bytes: piece)) }
        XCTAssertEqual(fixture.dataNames(), [], "a spool being written has no name (O_TMPFILE)")
        let file = try await sink.finish()

        XCTAssertEqual(file.size, 500_000)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file.path)), Data(pieces.joined()))
        XCTAssertEqual(file.head, Array(pieces[0].prefix(SpoolPolicy.headLength)))
        XCTAssertEqual(recorder.granted, 500_000, "every byte written is granted back as credit")
        XCTAssertEqual(recorder.steps, [.dataSync, .link, .directorySync])
        XCTAssertEqual(fixture.dataNames(), [file.id + ".bytes"])
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: fixture.dataDirectory)[.posixPermissions] as? Int, 0o700)
    }

    func testAScratchSpoolIsNamedWithoutSyncs() async throws {
        let recorder = SpoolRecorder()
        let file = try await spool([SpoolFixture.pattern(70_000)], in: fixture.store(system(recorder)), durable: false, recorder: recorder)
        XCTAssertFalse(file.durable)
        XCTAssertEqual(recorder.steps, [.link])
        XCTAssertEqual(fixture.dataNames(), [file.id + ".bytes"])
    }

    func testAFullDiskIsStorageFailedNamingTheFileAndLeavesNothing() async throws {
        let recorder = SpoolRecorder()
        let writes = SpoolRecorder()
        let store = fixture.store(system(recorder) { system in
            system.write = { fd, bytes in
                // The second write meets a full disk.
                if writes.granted >= 1 { errno = ENOSPC; return -1 }
                writes.grant(1)
                return Glibc.write(fd, bytes.baseAddress, bytes.count)
            }
        })
        let sink = try store.sink(durable: true, expected: nil) { recorder.grant($0) }
        try sink.append(ByteBuffer(bytes: SpoolFixture.pattern(100_000)))
        try sink.append(ByteBuffer(bytes: SpoolFixture.pattern(100_000)))
        do {
            _ = try await sink.finish()
            XCTFail("a full disk must fail the spool")
        } catch {
            XCTAssertEqual(error.code, .storageFailed)
            XCTAssertTrue(error.message.contains("No space left on device"), error.message)
            XCTAssertTrue(error.message.contains(fixture.dataDirectory + "/" + sink.id + ".bytes"), error.message)
        }
        XCTAssertThrowsError(try sink.append(ByteBuffer(bytes: [1])), "later bytes are refused with the failure")
        XCTAssertEqual(recorder.granted, 100_000, "bytes that were not written are not granted")
        XCTAssertEqual(recorder.steps, [], "nothing is synced or named after a failed write")
        XCTAssertEqual(fixture.dataNames(), [])
    }

    func testAnAbortedSpoolLeavesNothing() async throws {
        let recorder = SpoolRecorder()
        let sink = try fixture.store(system(recorder)).sink(durable: true, expected: nil) { recorder.grant($0) }
        try sink.append(ByteBuffer(bytes: SpoolFixture.pattern(300_000)))
        await sink.abort()
        XCTAssertEqual(fixture.dataNames(), [])
        XCTAssertEqual(recorder.steps, [])
        do {
            _ = try await sink.finish()
            XCTFail("an aborted spool cannot be finished")
        } catch {
            XCTAssertEqual(fixture.dataNames(), [])
        }
    }

    func testWithoutOTmpfileTheSpoolIsATemporaryFileUntilItIsNamed() async throws {
        let recorder = SpoolRecorder()
        let store = fixture.store(system(recorder) { $0.openTemporary = { _ in errno = EOPNOTSUPP; return -1 } })
        let sink = try store.sink(durable: true, expected: 100_000) { recorder.grant($0) }
        XCTAssertEqual(fixture.dataNames(), [sink.id + ".bytes.tmp"])
        try sink.append(ByteBuffer(bytes: SpoolFixture.pattern(100_000)))
        let file = try await sink.finish()
        XCTAssertEqual(fixture.dataNames(), [file.id + ".bytes"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file.path)), Data(SpoolFixture.pattern(100_000)))
        XCTAssertEqual(recorder.steps, [.dataSync, .link, .directorySync])

        let aborted = try store.sink(durable: true, expected: nil) { recorder.grant($0) }
        try aborted.append(ByteBuffer(bytes: SpoolFixture.pattern(1000)))
        await aborted.abort()
        XCTAssertEqual(fixture.dataNames(), [file.id + ".bytes"], "an aborted .tmp spool is removed")
    }

    func testAFileNoArchiveNamedIsRemovedWhenItsLastReferenceGoes() async throws {
        let recorder = SpoolRecorder()
        let store = fixture.store(system(recorder))
        var file: SpoolFile? = try await spool([SpoolFixture.pattern(70_000)], in: store, recorder: recorder)
        XCTAssertEqual(fixture.dataNames().count, 1)
        file = nil
        await store.reclaimer.settle()
        XCTAssertNil(file)
        XCTAssertEqual(fixture.dataNames(), [])
    }

    func testANamedFileWaitsForTheCheckpointBeforeItIsRemoved() async throws {
        let recorder = SpoolRecorder()
        let store = fixture.store(system(recorder))
        let scheduled = SpoolRecorder()
        store.reclaimer.schedule { scheduled.grant(1) }
        var file: SpoolFile? = try await spool([SpoolFixture.pattern(70_000)], in: store, recorder: recorder)
        let name = try XCTUnwrap(file).id + ".bytes"
        file?.markNamed()
        file = nil
        await store.reclaimer.settle()
        XCTAssertEqual(fixture.dataNames(), [name], "a named file stays until the next checkpoint")
        XCTAssertEqual(scheduled.granted, 0, "70 KB released asks for no checkpoint of its own")
        // Released files that add up to reclaimBytes ask for one (the size is what counts; this
        // one has no bytes on disk).
        var large: SpoolFile? = SpoolFile(id: SpoolFile.newID(), size: SpoolPolicy.reclaimBytes, head: [], durable: true, named: true,
                                          directory: try store.directory(), reclaimer: store.reclaimer)
        XCTAssertNotNil(large)
        large = nil
        XCTAssertEqual(scheduled.granted, 1, "released files past reclaimBytes ask for a checkpoint")
        let both = store.reclaimer.takeNamed()
        XCTAssertEqual(both.count, 2)
        store.reclaimer.putBack(both.filter { $0.name == name })

        let released = store.reclaimer.takeNamed()
        XCTAssertEqual(released.map(\.name), [name])
        store.reclaimer.putBack(released)  // the checkpoint failed: it waits for the next one
        XCTAssertEqual(fixture.dataNames(), [name])
        store.reclaimer.remove(store.reclaimer.takeNamed())
        await store.reclaimer.settle()
        XCTAssertEqual(fixture.dataNames(), [])
        XCTAssertTrue(store.reclaimer.takeNamed().isEmpty)
    }
}

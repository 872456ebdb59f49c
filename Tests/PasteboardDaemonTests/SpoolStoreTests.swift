import Foundation
import Logging
import NIOCore
@testable import PasteboardDaemon
import PasteboardProtocol
import XCTest

/// The data directory: private and created only when needed, free space checked before a copy
/// starts, and leftovers of a crash swept at start without touching what is still named.
final class SpoolStoreTests: SpoolTestCase {
    private let logger = Logger(label: "SpoolStoreTests")

    private func store(freeBytes: Int?) -> SpoolStore {
        var system = SpoolSystem.live
        system.freeBytes = { _ in freeBytes }
        return fixture.store(system)
    }

    func testTheDataDirectoryIsCreatedPrivateOnlyWhenFirstUsed() throws {
        let store = fixture.store()
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.dataDirectory))
        XCTAssertEqual(store.sweep(keeping: [], logger: logger), SpoolStore.Sweep())
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.dataDirectory), "a sweep does not create data/")
        _ = try store.directory()
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: fixture.dataDirectory)[.posixPermissions] as? Int, 0o700)
    }

    func testADataDirectoryOthersCanWriteIsRefused() throws {
        try FileManager.default.createDirectory(atPath: fixture.dataDirectory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        chmod(fixture.dataDirectory, 0o777)
        XCTAssertThrowsError(try fixture.store().sink(durable: true, expected: nil) { _ in }) { error in
            let error = error as? ProtocolError
            XCTAssertEqual(error?.code, .storageFailed)
            XCTAssertTrue(error?.message.contains("data directory") == true, error?.message ?? "")
            XCTAssertTrue(error?.message.contains("writable by group or others") == true, error?.message ?? "")
        }
    }

    func testADataDirectoryThatIsASymbolicLinkIsRefused() throws {
        let elsewhere = fixture.stateDirectory + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createSymbolicLink(atPath: fixture.dataDirectory, withDestinationPath: elsewhere)
        XCTAssertThrowsError(try fixture.store().requireFree(0)) { error in
            XCTAssertTrue((error as? ProtocolError)?.message.contains("symbolic link") == true, "\(error)")
        }
    }

    func testACopyThatWouldEatTheReserveIsRefusedBeforeAnyByte() throws {
        let store = store(freeBytes: 1 << 30)
        XCTAssertNoThrow(try store.requireFree(512 << 20))
        XCTAssertNoThrow(try store.requireFree((1 << 30) - SpoolPolicy.freeSpaceReserve))
        XCTAssertThrowsError(try store.requireFree((1 << 30) - SpoolPolicy.freeSpaceReserve + 1)) { error in
            let error = error as? ProtocolError
            XCTAssertEqual(error?.code, .storageFailed)
            XCTAssertEqual(error?.message, "not enough free space in \(fixture.dataDirectory) for 768.0 MiB (1.0 GiB free; pasteboardd keeps 256.0 MiB free)")
        }
        XCTAssertThrowsError(try store.requireFree(.max), "a size that overflows with the reserve is refused")
        XCTAssertThrowsError(try store.requireFree(-1)) { error in
            XCTAssertEqual((error as? ProtocolError)?.code, .invalidArgument)
        }
        XCTAssertThrowsError(try store.sink(durable: true, expected: 900 << 20) { _ in }, "a declared size is checked when the spool starts")
        XCTAssertEqual(fixture.dataNames(), [], "a refused spool creates no file")
        XCTAssertNoThrow(try self.store(freeBytes: nil).requireFree(1 << 40), "unknown free space refuses nothing")
    }

    func testTheSweepRemovesLeftoversAndKeepsNamedFilesAndForeignOnes() throws {
        let store = fixture.store()
        let directory = try store.directory().path
        let kept = SpoolFile.newID()
        let orphan = SpoolFile.newID()
        let half = SpoolFile.newID()
        let linked = SpoolFile.newID()
        try Data(count: 10).write(to: URL(fileURLWithPath: directory + "/\(kept).bytes"))
        try Data(count: 1000).write(to: URL(fileURLWithPath: directory + "/\(orphan).bytes"))
        try Data(count: 24).write(to: URL(fileURLWithPath: directory + "/\(half).bytes.tmp"))
        try Data(count: 5).write(to: URL(fileURLWithPath: directory + "/notes.txt"))
        try FileManager.default.createSymbolicLink(atPath: directory + "/\(linked).bytes", withDestinationPath: directory + "/notes.txt")

        let swept = store.sweep(keeping: [kept], logger: logger)
        XCTAssertEqual(swept, SpoolStore.Sweep(files: 2, bytes: 1024))
        XCTAssertEqual(fixture.dataNames(), ["\(kept).bytes", "\(linked).bytes", "notes.txt"].sorted())
    }

    func testTheFreeSpaceOfTheDataDirectoryIsKnown() throws {
        let directory = try fixture.store().directory()
        let free = try XCTUnwrap(SpoolSystem.live.freeBytes(directory.fd), "fstatvfs answers for a local filesystem")
        XCTAssertGreaterThan(free, 0)
    }

    func testSpoolNamesAreThirtyTwoHexDigits() {
        let id = SpoolFile.newID()
        XCTAssertEqual(SpoolFile.id(inName: id + ".bytes", temporary: false), id)
        XCTAssertEqual(SpoolFile.id(inName: id + ".bytes.tmp", temporary: true), id)
        XCTAssertNil(SpoolFile.id(inName: id + ".bytes.tmp", temporary: false))
        XCTAssertNil(SpoolFile.id(inName: "../" + id.dropFirst(3) + ".bytes", temporary: false))
        XCTAssertNil(SpoolFile.id(inName: id.uppercased() + ".bytes", temporary: false))
        XCTAssertNotEqual(SpoolFile.newID(), id)
    }
}

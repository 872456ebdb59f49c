import Foundation
import PasteboardSystem
import XCTest

/// The bridge's status file: what `pb bridge` trusts, and how it tells a running bridge.
final class BridgeStatusFileTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bridge-status-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private var files: BridgeStatusFile { BridgeStatusFile(socketPath: directory + "/pasteboardd.sock") }

    func testAWrittenStatusReadsBackPrivate() throws {
        let status = BridgeStatus(
            pid: 42, state: .bridging, display: ":0", displayProtocol: "x11",
            selections: [.init(selection: "clipboard", pasteboard: "general", owner: "desktop", changeCount: 7)])
        try files.write(status)
        XCTAssertEqual(try files.read(), status)
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: files.path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode, 0o600)
        let json = try String(contentsOfFile: files.path, encoding: .utf8)
        XCTAssertTrue(json.contains("\"protocol\":\"x11\""), json)
    }

    func testNoFileIsNoStatus() throws {
        XCTAssertNil(try files.read())
    }

    func testAFileOthersMayWriteIsRefused() throws {
        try files.write(BridgeStatus(pid: 1, state: .off, reason: "test"))
        chmod(files.path, 0o666)
        XCTAssertThrowsError(try files.read()) { error in
            XCTAssertTrue("\(error)".contains("not this user's own"), "\(error)")
        }
    }

    func testASymbolicLinkIsRefused() throws {
        let elsewhere = directory + "/elsewhere"
        try Data(#"{"pid":1,"state":"off","selections":[]}"#.utf8).write(to: URL(fileURLWithPath: elsewhere))
        try FileManager.default.createSymbolicLink(atPath: files.path, withDestinationPath: elsewhere)
        XCTAssertThrowsError(try files.read())
    }

    func testSomethingElseIsNotAStatus() throws {
        try Data("not json".utf8).write(to: URL(fileURLWithPath: files.path))
        chmod(files.path, 0o600)
        XCTAssertThrowsError(try files.read()) { error in
            XCTAssertTrue("\(error)".contains("is not a bridge status"), "\(error)")
        }
    }

    func testTheLockTellsARunningBridge() throws {
        XCTAssertFalse(files.isHeld(), "no lock file, no bridge")
        let fd = try files.lock()
        XCTAssertTrue(files.isHeld())
        close(fd)
        XCTAssertFalse(files.isHeld(), "a released lock is a bridge that ended")
    }
}

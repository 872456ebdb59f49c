import Glibc
@testable import PasteboardX11
import XCTest

/// What the connection does with the new events when another client sends them (SendEvent sets
/// the code's top bit): pointer and key events are dropped, so no client can drop or cancel a
/// drag; one that does not decode is dropped, not taken for the server breaking the protocol;
/// a window manager's synthetic ConfigureNotify is kept (ICCCM §4.1.5).
final class ForgedInputEventTests: XCTestCase {
    private func le16(_ value: UInt16) -> [UInt8] { WireBytes.le16(value) }
    private func le32(_ value: UInt32) -> [UInt8] { WireBytes.le32(value) }

    private func button(_ code: UInt8, detail: UInt8 = 1) -> [UInt8] {
        [code, detail] + le16(0) + le32(5) + le32(0x536) + le32(0x0020_0001) + le32(0) + WireBytes.zeros(8) + le16(0) + [1, 0]
    }

    private func configure(_ code: UInt8, overrideRedirect: UInt8, width: UInt16) -> [UInt8] {
        [code, 0] + le16(0) + le32(0x0020_0001) + le32(0x0020_0001) + le32(0) + WireBytes.zeros(4) + le16(width) + le16(10) + le16(0)
            + [overrideRedirect] + WireBytes.zeros(5)
    }

    func testForgedInputIsDroppedAndUndecodableForgeriesDoNotEndTheConnection() throws {
        var descriptors: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &descriptors) == 0 else { throw XCTSkip("socketpair: errno \(errno)") }
        defer { close(descriptors[1]) }
        let connection = X11Connection.attached(
            descriptor: descriptors[0], setup: SetupInfo(root: WindowID(0x536), idBase: 0x0020_0000, idMask: 0x001f_ffff, maximumRequestLength: 65535))
        let packets = [
            button(4 | 0x80),  // a forged ButtonPress: dropped
            button(6 | 0x80, detail: 7),  // a forged MotionNotify that does not decode: dropped
            configure(22 | 0x80, overrideRedirect: 9, width: 1),  // a forged ConfigureNotify that does not decode: dropped
            configure(22 | 0x80, overrideRedirect: 0, width: 2),  // a window manager's: kept
            button(5),  // the server's ButtonRelease: kept
        ]
        let stream = packets.flatMap { $0 }
        XCTAssertEqual(stream.withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) }, stream.count)

        let first = try connection.nextEvent(deadline: X11Deadline(after: .seconds(10)), what: "the synthetic ConfigureNotify") { _ in true }
        guard case let .configureNotify(configured) = first else { return XCTFail("\(first)") }
        XCTAssertEqual(configured.width, 2)
        let second = try connection.nextEvent(deadline: X11Deadline(after: .seconds(10)), what: "the ButtonRelease") { _ in true }
        guard case let .buttonRelease(release) = second else { return XCTFail("\(second)") }
        XCTAssertEqual(release.detail, 1)
        XCTAssertEqual(connection.forgedEventCount, 3)
        XCTAssertEqual(connection.queuedEventCount, 0)
    }
}

import Foundation
import Glibc
import XCTest

/// The length of the daemon's data frames, byte for byte as pasteboard-protocol(7) FRAMING
/// gives it: at most 262138 payload bytes (262144 or maxFrameLength, whichever is smaller, less 6).
final class DataFrameSizeTests: IntegrationTestCase {
    /// The payload sizes of the data frames of a raw `read` of item 0 of `general`.
    private func dataFramePayloads() throws -> [Int] {
        let client = try RawClient(socketPath: sandbox.socketPath)
        XCTAssertEqual(try client.hello().op, "welcome")
        try client.sendMessage(["op": "read", "pasteboard": "general", "item": 0, "accept": []], requestID: 1)
        var payloads: [Int] = []
        while let frame = try client.receive() {
            XCTAssertNotEqual(frame.op, "error", "\(frame.json ?? [:])")
            guard frame.kind == 2 else { continue }
            payloads.append(frame.payload.count)
            if frame.flags & 1 != 0 { break }
        }
        return payloads
    }

    func testStoredAndLazyDataComesInFramesOfAtMost262138Bytes() throws {
        let size = (1 << 20) + 5
        let file = try randomFile("data.bin", size: size)
        for arguments in [[], ["--memory-only"]] {
            if !arguments.isEmpty { daemon.stop(); daemon = try DaemonProcess.started(in: sandbox, arguments: arguments) }
            try pbOK("copy", file)
            let payloads = try dataFramePayloads()
            XCTAssertEqual(payloads.reduce(0, +), size, "\(arguments)")
            XCTAssertEqual(payloads.max(), 262_138, "stored data, \(arguments): \(payloads)")
        }
        // Through the daemon from a live source, as it arrives (a raw read asks no hand-off).
        _ = try startPB("copy", "--lazy", file)
        try waitForLazyItems()
        let payloads = try dataFramePayloads()
        XCTAssertEqual(payloads.reduce(0, +), size)
        XCTAssertLessThanOrEqual(payloads.max() ?? 0, 262_138, "relayed data: \(payloads)")
    }

    func testASmallerFrameLimitMakesSmallerDataFrames() throws {
        try restartDaemon(["--max-frame-length", "64K"])
        let size = 300_000
        try pbOK("copy", try randomFile("data.bin", size: size))
        let payloads = try dataFramePayloads()
        XCTAssertEqual(payloads.reduce(0, +), size)
        XCTAssertEqual(payloads.max(), 65_530, "65536 less the 6 header bytes: \(payloads)")
    }
}

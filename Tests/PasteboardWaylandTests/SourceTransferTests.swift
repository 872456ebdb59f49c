@testable import PasteboardWayland
import Glibc
import TestSupport
import XCTest

/// The writer a provider gets, against plain pipes: bytes arrive whole, a reader that left ends
/// the transfer with readerClosed and never kills the process with SIGPIPE, a reader that
/// stops reading is given up after the stall timeout, and cancellation stops a waiting write.
final class SourceTransferTests: XCTestCase {
    func testBytesArriveWholeAndFinishClosesThePipe() async throws {
        let (readEnd, writeEnd) = try pipe()
        defer { close(readEnd) }
        let transfer = try SourceTransfer(descriptor: writeEnd, mimeType: "text/plain", kind: .clipboard, stallTimeout: .seconds(5))
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let reading = Task.detached { () -> [UInt8] in
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
                if count <= 0 { return received }
                received += buffer[..<count]
            }
        }
        try await transfer.write(bytes[..<100_000])
        try await transfer.write(Array(bytes[100_000...]))
        transfer.finish()
        let received = await reading.value
        XCTAssertEqual(received, bytes)
        XCTAssertEqual(transfer.bytesWritten, bytes.count)
    }

    func testAReaderThatLeftEndsTheTransferWithoutSIGPIPE() async throws {
        // The default disposition kills the process on SIGPIPE: the write must not raise it.
        let previous = signal(SIGPIPE, SIG_DFL)
        defer { signal(SIGPIPE, previous) }
        let (readEnd, writeEnd) = try pipe()
        close(readEnd)
        let transfer = try SourceTransfer(descriptor: writeEnd, mimeType: "image/png", kind: .clipboard, stallTimeout: .seconds(5))
        await XCTAssertThrowsErrorAsync(try await transfer.write([1, 2, 3])) {
            XCTAssertEqual($0 as? WaylandError, .readerClosed(mimeType: "image/png", bytesWritten: 0))
        }
        var pending = sigset_t()
        sigpending(&pending)
        XCTAssertEqual(sigismember(&pending, SIGPIPE), 0, "no SIGPIPE left pending")
        transfer.finish()
    }

    func testAReaderThatStopsReadingIsGivenUpAfterTheStallTimeout() async throws {
        let (readEnd, writeEnd) = try pipe()
        defer { close(readEnd) }
        let transfer = try SourceTransfer(descriptor: writeEnd, mimeType: "application/octet-stream", kind: .primary, stallTimeout: .milliseconds(200))
        // More than the pipe holds, even at the size the transfer asks for.
        let count = Int(SourceTransfer.pipeBytes) * 4
        let start = ContinuousClock.now
        await XCTAssertThrowsErrorAsync(try await transfer.write([UInt8](repeating: 7, count: count))) {
            guard case .readerStalled("application/octet-stream", let written)? = $0 as? WaylandError else { return XCTFail("\($0)") }
            XCTAssertGreaterThan(written, 0, "the pipe's capacity was filled first")
            XCTAssertLessThan(written, count)
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(3))
        transfer.finish()
    }

    func testCancellingTheProvidersTaskStopsAWaitingWrite() async throws {
        let (readEnd, writeEnd) = try pipe()
        defer { close(readEnd) }
        let transfer = try SourceTransfer(descriptor: writeEnd, mimeType: "text/plain", kind: .clipboard, stallTimeout: .seconds(60))
        // More than the pipe holds, even at the size the transfer asks for: the write waits.
        let writing = Task { try await transfer.write([UInt8](repeating: 1, count: Int(SourceTransfer.pipeBytes) * 4)) }
        // The write waits once it has filled the pipe: its write end is no longer writable.
        let full = await asyncEventually {
            var entry = pollfd(fd: writeEnd, events: Int16(POLLOUT), revents: 0)
            return poll(&entry, 1, 0) == 0
        }
        XCTAssertTrue(full, "the write never filled the pipe")
        let start = ContinuousClock.now
        writing.cancel()
        await XCTAssertThrowsErrorAsync(try await writing.value) { XCTAssertTrue($0 is CancellationError, "\($0)") }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(2))
        transfer.finish()
    }

    func testAWriteAfterTheTransferEndedIsAClearError() async throws {
        let (readEnd, writeEnd) = try pipe()
        defer { close(readEnd) }
        let transfer = try SourceTransfer(descriptor: writeEnd, mimeType: "text/plain", kind: .clipboard, stallTimeout: .seconds(1))
        transfer.finish()
        await XCTAssertThrowsErrorAsync(try await transfer.write([1])) {
            XCTAssertEqual($0 as? WaylandError, .sendFailed(mimeType: "text/plain", errno: EBADF))
        }
    }

    private func pipe() throws -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        guard Glibc.pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        return (fds[0], fds[1])
    }
}

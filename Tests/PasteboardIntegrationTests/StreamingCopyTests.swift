import Foundation
import TestSupport
import XCTest

/// `pb copy FILE` and `pb copy < pipe` of large input: the bytes stream to the daemon as they
/// are read, so pb's memory stays bounded whatever the size; a read that fails part-way or an
/// input over the daemon's limit leaves the previous content in place.
final class StreamingCopyTests: IntegrationTestCase {
    private static let largeSize = 300 << 20
    /// pb's peak resident memory while copying: a frame and a read-ahead, not the input.
    private static let pbMemoryCeilingKiB = 32 << 10

    func testALargeFileAndALargePipeRoundTripWhilePBStaysSmall() throws {
        daemon.stop()
        daemon = try DaemonProcess.started(in: sandbox, arguments: ["--max-representation-size", "1G"])
        let source = try shell("head -c \(Self.largeSize) /dev/urandom > \"$0\"", sandbox.path("large"))

        let byFile = try startPB("copy", source)
        let fileStatus = waitWatchingPeakMemory(of: byFile)
        XCTAssertEqual(fileStatus.status, 0, byFile.stderrLines.joined(separator: "\n"))
        XCTAssertLessThan(fileStatus.peakKiB, Self.pbMemoryCeilingKiB, "pb copy FILE of 300 MiB held the file in memory")
        XCTAssertTrue(try pastedEquals(source), "pb copy FILE: the pasted bytes differ")

        let fifo = sandbox.path("pipe")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let byPipe = try start("/bin/sh", ["-c", "exec \"$0\" copy < \"$1\"", Binaries.url("pb").path, fifo])
        let writer = try start("/bin/sh", ["-c", "exec cat \"$0\" > \"$1\"", source, fifo])
        let pipeStatus = waitWatchingPeakMemory(of: byPipe)
        XCTAssertEqual(writer.waitForExit(), 0)
        XCTAssertEqual(pipeStatus.status, 0, byPipe.stderrLines.joined(separator: "\n"))
        XCTAssertLessThan(pipeStatus.peakKiB, Self.pbMemoryCeilingKiB, "pb copy < pipe of 300 MiB held the input in memory")
        XCTAssertTrue(try pastedEquals(source), "pb copy < pipe: the pasted bytes differ")
    }

    func testAFileTruncatedWhileItIsReadFailsAndKeepsThePreviousContent() throws {
        try pbOK("copy", stdin: Data("previous".utf8))
        let path = try randomFile("shrinking", size: 8 << 20)
        // The daemon stopped: pb reads its first MiB, then waits for the daemon's welcome before
        // reading on, so the file shrinks under it mid-copy.
        daemon.signal(SIGSTOP)
        // kill(2) returns before a busy machine has stopped every thread: wait until it has.
        XCTAssertTrue(eventually { Self.isStopped(self.daemon.process.processIdentifier) }, "the daemon never stopped")
        let copy = try startPB("copy", path)
        let readAhead = eventually { (Self.readOffset(of: path, in: copy.process.processIdentifier) ?? 0) >= 1 << 20 }
        XCTAssertTrue(truncate(path, 2 << 20) == 0)
        daemon.signal(SIGCONT)
        XCTAssertTrue(readAhead, "pb never read the file's first MiB")
        XCTAssertEqual(copy.waitForExit(), 1)
        let message = copy.stderrLines.joined(separator: "\n")
        XCTAssertTrue(message.contains("changed while it was read"), message)
        XCTAssertTrue(message.contains("ended after 2097152 of 8388608 bytes"), message)
        XCTAssertEqual(try pbOK("paste").stdoutText, "previous", "the failed copy replaced the content")
    }

    func testInputOverTheDaemonsLimitIsTooLargeByFileAndByPipeAndKeepsThePreviousContent() throws {
        daemon.stop()
        daemon = try DaemonProcess.started(in: sandbox, arguments: ["--max-representation-size", "256M"])
        try pbOK("copy", stdin: Data("previous".utf8))
        let path = sandbox.path("sparse")
        try shell("truncate -s 257M \"$0\"", path)  // past the 256M limit given above, sparse: no disk

        let byFile = try pb("copy", path)
        XCTAssertEqual(byFile.status, 1)
        XCTAssertTrue(byFile.stderr.contains("max-representation-size (256.0 MiB)"), byFile.stderr)

        let fifo = sandbox.path("pipe")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let byPipe = try start("/bin/sh", ["-c", "exec \"$0\" copy < \"$1\"", Binaries.url("pb").path, fifo])
        let writer = try start("/bin/sh", ["-c", "exec cat \"$0\" > \"$1\" 2>/dev/null", path, fifo])
        XCTAssertEqual(byPipe.waitForExit(), 1)
        _ = writer.waitForExit()  // ends by SIGPIPE once pb has gone
        let message = byPipe.stderrLines.joined(separator: "\n")
        XCTAssertTrue(message.contains("max-representation-size (256.0 MiB)"), message)

        XCTAssertEqual(try pbOK("paste").stdoutText, "previous", "a refused copy replaced the content")
    }

    // MARK: - Helpers

    /// Waits for `tool` to exit, sampling its peak resident memory (VmHWM, which only grows,
    /// so the last sample before it exits is the peak); returns its status and that peak.
    private func waitWatchingPeakMemory(of tool: ToolProcess) -> (status: Int32?, peakKiB: Int) {
        let pid = tool.process.processIdentifier
        var peak = 0
        let deadline = Date().addingTimeInterval(300)  // a bound for a hung pb, not a timing
        while tool.process.isRunning && Date() < deadline {
            if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
               let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
               let kib = Int(line.split(separator: " ").dropFirst().first ?? "") {
                peak = max(peak, kib)
            }
            usleep(2_000)
        }
        XCTAssertGreaterThan(peak, 0, "pb's memory was never sampled")
        return (tool.waitForExit(), peak)
    }

    /// Whether every thread of `pid` is stopped (state `T` in `/proc/<pid>/task/*/stat`).
    private static func isStopped(_ pid: Int32) -> Bool {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"), !tasks.isEmpty else { return false }
        return tasks.allSatisfy { task in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            return stat[stat.index(close, offsetBy: 2)...].first == "T"
        }
    }

    /// The offset of process `pid`'s descriptor open on `path`, when it has one.
    private static func readOffset(of path: String, in pid: Int32) -> Int? {
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { return nil }
        for descriptor in descriptors {
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)")) == path,
                  let info = try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(descriptor)", encoding: .utf8),
                  let line = info.split(separator: "\n").first(where: { $0.hasPrefix("pos:") }) else { continue }
            return Int(line.dropFirst(4).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}

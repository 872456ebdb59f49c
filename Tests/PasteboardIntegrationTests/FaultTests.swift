import Foundation
import Glibc
import XCTest

/// kill -9 of any party mid-transfer: the others learn of it with a clear error, nothing half
/// done becomes visible, and the daemon gives back what it held for the transfer.
final class FaultTests: IntegrationTestCase {
    func testADaemonKilledMidCopyFailsTheCopyAndShowsNoHalfItemAfterRestart() throws {
        try pbOK("copy", stdin: Data("before".utf8))
        let before = try changeCount()
        let big = try randomFile("big.bin", size: 240 << 20)
        let baseline = try ProcessCounters.writtenBytes(of: daemon.process.processIdentifier)
        let copy = try startPB("copy", big)
        // Kill the daemon once part of the data has arrived: it stores what arrives on disk.
        let deadline = Date().addingTimeInterval(30)
        while (try ProcessCounters.writtenBytes(of: daemon.process.processIdentifier)) - baseline < 32 << 20, Date() < deadline, copy.process.isRunning {
            usleep(2_000)
        }
        XCTAssertTrue(copy.process.isRunning, "the copy was still in flight when the daemon died")
        daemon.kill9()
        XCTAssertEqual(copy.waitForExit(), 1, "the copy reports failure")
        XCTAssertTrue(copy.stderrLines.contains { $0.contains("lost the connection to pasteboardd") }, "\(copy.stderrLines)")

        daemon = try DaemonProcess.started(in: sandbox)
        XCTAssertEqual(try pbOK("paste").stdoutText, "before", "the previous content, never half of the new")
        XCTAssertEqual(try changeCount(), before)
        let leftovers = (FileManager.default.subpaths(atPath: sandbox.stateDirectory) ?? []).filter { path in
            !path.hasSuffix(".pasteboard") && path != "history" && path != "journal" && path != "data" && path != "daemon.lock" && path != "machine-id"
                && !(path.hasPrefix("history/") && path.hasSuffix(".entry"))
        }
        XCTAssertEqual(leftovers, [], "no temporary archive, history entry or stored file of the cut copy is left behind")
    }

    func testADestinationKilledMidLoadCancelsTheSourceHandlerAndTheDaemonLetsGoOfTheTransfer() throws {
        let source = try randomFile("served.bin", size: 256 << 20)
        let copier = try startPB("copy", "--lazy", "--verbose", source)
        let deadline = Date().addingTimeInterval(20)
        while ((try? listing()["items"] as? [Any])?.count ?? 0) == 0, Date() < deadline { usleep(10_000) }
        let pid = daemon.process.processIdentifier
        var settled: [Int] = []
        for round in 1...4 {
            let output = sandbox.path("killed-\(round).bin")
            let paste = try startPB("paste", "--progress", "-o", output)
            XCTAssertNotNil(paste.waitForLine { $0.hasPrefix("progress ") }, "load \(round) started")
            paste.signal(SIGKILL)
            _ = paste.waitForExit()
            let heard = copier.waitForLine { line in
                line.hasSuffix(": cancelled") || line.contains(": failed")
            }
            XCTAssertNotNil(heard, "the source's handler hears the destination left: \(copier.stderrLines.suffix(3))")
            // Wait until this round's end reached the source before the next round starts.
            let ends = { copier.stderrLines.filter { $0.hasSuffix(": cancelled") || $0.contains(": failed") }.count }
            let roundDeadline = Date().addingTimeInterval(10)
            while ends() < round, Date() < roundDeadline { usleep(5_000) }
            usleep(200_000)
            settled.append(try residentBytes(of: pid))
        }
        XCTAssertTrue(copier.process.isRunning, "the source keeps serving")
        XCTAssertLessThan(settled[3] - settled[0], 8 << 20,
                          "the daemon's memory returns to where it was after each killed load: \(settled.map { $0 >> 20 }) MiB")
        let full = sandbox.path("full.bin")
        try pbOK("paste", "-o", full)
        XCTAssertEqual(try runTool("/usr/bin/cmp", [source, full], environment: sandbox.environment(), in: sandbox).status, 0)
    }
}

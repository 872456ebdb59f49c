import Foundation
import XCTest

/// `pb copy --lazy` as a live source, `pb paste` as the destination, a real daemon between.
final class LazyTransferTests: IntegrationTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    func testLazy256MiBFileArrivesByteExactWithMonotonicProgressEndingAtTheTotal() throws {
        let size = 256 << 20
        let source = try randomFile("big.bin", size: size)
        let copier = try startPB("copy", "--lazy", source)
        try waitForLazyItems()
        let output = sandbox.path("out.bin")
        let paste = try pbOK("paste", "--progress", "-o", output)
        let progress = progressLines(paste.stderr.split(separator: "\n").map(String.init))
        XCTAssertGreaterThan(progress.count, 10, "progress is reported along the way")
        XCTAssertEqual(progress.last?.completed, size)
        XCTAssertTrue(progress.allSatisfy { $0.total == size }, "the total is the file's size")
        XCTAssertEqual(progress.map(\.completed), progress.map(\.completed).sorted(), "progress never goes back")
        XCTAssertLessThanOrEqual(progress.count, 100 + 50, "progress is rate-bounded")
        let sizeOnDisk = try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int
        XCTAssertEqual(sizeOnDisk, size)
        XCTAssertEqual(try runTool("/usr/bin/cmp", [source, output], environment: sandbox.environment(), in: sandbox).status, 0,
                       "the pasted file differs from the source file")
        XCTAssertTrue(copier.process.isRunning, "the source keeps serving after a load")
    }

    func testTheLazySourceExitsZeroWhenItsItemsAreReplaced() throws {
        let source = try randomFile("a.bin", size: 1000)
        let copier = try startPB("copy", "--lazy", source)
        try waitForLazyItems()
        try pbOK("copy", stdin: Data("newer".utf8))
        XCTAssertEqual(copier.waitForExit(), 0)
        XCTAssertEqual(try pbOK("paste").stdoutText, "newer")
    }

    func testPasteOnceServesOneLoadThenClearsThePasteboard() throws {
        let source = try randomFile("once.bin", size: 100_000)
        let copier = try startPB("copy", "--lazy", "--paste-once", source)
        try waitForLazyItems()
        let first = try pbOK("paste")
        XCTAssertEqual(first.stdout, try Data(contentsOf: URL(fileURLWithPath: source)))
        XCTAssertEqual(copier.waitForExit(), 0)
        let items = try XCTUnwrap(listing()["items"] as? [[String: Any]])
        XCTAssertTrue(items.isEmpty, "the pasteboard was cleared after the one load")
    }

    func testConcurrentDestinationsBothGetTheExactBytes() throws {
        let size = 24 << 20
        let source = try randomFile("shared.bin", size: size)
        _ = try startPB("copy", "--lazy", source)
        try waitForLazyItems()
        let outputs = [sandbox.path("one.bin"), sandbox.path("two.bin")]
        let pastes = try outputs.map { try startPB("paste", "-o", $0) }
        for paste in pastes { XCTAssertEqual(paste.waitForExit(), 0, paste.stderrLines.joined(separator: "\n")) }
        for output in outputs {
            XCTAssertEqual(try runTool("/usr/bin/cmp", [source, output], environment: sandbox.environment(), in: sandbox).status, 0,
                           "\(output) differs from the source")
        }
    }

    func testASourceKilledMidTransferFailsTheDestinationWithoutPartialOutput() throws {
        let source = try randomFile("doomed.bin", size: 256 << 20)
        let copier = try startPB("copy", "--lazy", source)
        try waitForLazyItems()
        let output = sandbox.path("partial.bin")
        let paste = try startPB("paste", "--progress", "-o", output)
        XCTAssertNotNil(paste.waitForLine { $0.hasPrefix("progress ") }, "the load started")
        paste.signal(SIGSTOP)  // the destination stops reading: the transfer stalls under flow control
        copier.signal(SIGKILL)
        _ = copier.waitForExit()
        paste.signal(SIGCONT)
        let status = paste.waitForExit()
        XCTAssertEqual(status, 1, "the destination fails instead of hanging")
        XCTAssertTrue(paste.stderrLines.contains { $0.contains("disconnected") }, paste.stderrLines.suffix(3).joined(separator: "\n"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: output), "no partial output file")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.root.path).filter { $0.contains("partial.bin") }
        XCTAssertEqual(leftovers, [], "no temporary file left behind")
        // The daemon serves on; the representation is now unavailable with a clear error.
        let again = try pb("paste")
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.stderr.contains("disconnected without handing over"), again.stderr)
        XCTAssertTrue(try pbOK("list").stdoutText.contains("(unavailable)"))
        try pbOK("copy", stdin: Data("still serving".utf8))
        XCTAssertEqual(try pbOK("paste").stdoutText, "still serving")
    }

    func testInterruptingTheDestinationCancelsTheSourceHandler() throws {
        let source = try randomFile("cancel.bin", size: 128 << 20)
        let copier = try startPB("copy", "--lazy", "--verbose", source)
        try waitForLazyItems()
        let output = sandbox.path("cancelled.bin")
        // Through the daemon: handed off, 128 MiB arrive in tens of milliseconds, before the
        // test can interrupt the load (HandoffTests cover the hand-off itself).
        let paste = try start("pb", ["paste", "--progress", "-o", output], environment: sandbox.environment().merging(["PASTEBOARD_HANDOFF": "0"]) { $1 })
        XCTAssertNotNil(paste.waitForLine { $0.hasPrefix("progress ") }, "the load started")
        paste.signal(SIGSTOP)
        paste.signal(SIGINT)
        paste.signal(SIGCONT)
        XCTAssertEqual(paste.waitForExit(), 130)
        XCTAssertTrue(paste.stderrLines.contains("pb: cancelled"), paste.stderrLines.suffix(3).joined(separator: "\n"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: output), "no partial output file")
        XCTAssertNotNil(copier.waitForLine { $0.hasSuffix(": cancelled") }, "the source's handler hears the cancellation: \(copier.stderrLines.suffix(3))")
        XCTAssertTrue(copier.process.isRunning, "the source keeps serving")
        // And the next load still works in full.
        let full = sandbox.path("full.bin")
        try pbOK("paste", "-o", full)
        XCTAssertEqual(try runTool("/usr/bin/cmp", [source, full], environment: sandbox.environment(), in: sandbox).status, 0)
    }
}

/// Owner exit: what a lazy source hands over when it leaves, within the daemon's capture budget.
final class OwnerExitTests: IntegrationTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    override class var daemonArguments: [String] { ["--capture-budget", "1048576"] }

    func testAGracefulExitHandsOverWhatFitsTheBudgetAndTheRestIsUnavailable() throws {
        let small = sandbox.path("small.txt"), large = sandbox.path("large.bin")
        try Data("kept after exit\n".utf8).write(to: URL(fileURLWithPath: small))
        try Data(repeating: 7, count: 2 << 20).write(to: URL(fileURLWithPath: large))
        let copier = try ToolProcess("pb", ["copy", "--lazy", small, large], environment: sandbox.environment(), in: sandbox)
        defer { copier.stop() }
        let deadline = Date().addingTimeInterval(20)
        while (try? listing()["items"] as? [[String: Any]])??.count != 2, Date() < deadline { usleep(10_000) }
        copier.signal(SIGTERM)
        XCTAssertEqual(copier.waitForExit(), 0, copier.stderrLines.joined(separator: "\n"))
        XCTAssertEqual(try pbOK("paste", "--item", "0").stdoutText, "kept after exit\n", "within the budget: captured")
        let refused = try pb("paste", "--item", "1")
        XCTAssertEqual(refused.status, 1, "over the budget: unavailable, not a hang")
        XCTAssertTrue(refused.stderr.contains("capture budget"), refused.stderr)
        let listed = try pbOK("list").stdoutText
        XCTAssertTrue(listed.contains("(unavailable)"), listed)
    }

    func testAKilledSourceLeavesItsPromisesUnavailable() throws {
        let small = sandbox.path("small.txt")
        try Data("gone".utf8).write(to: URL(fileURLWithPath: small))
        let copier = try ToolProcess("pb", ["copy", "--lazy", small], environment: sandbox.environment(), in: sandbox)
        let deadline = Date().addingTimeInterval(20)
        while (try? listing()["items"] as? [[String: Any]])??.count != 1, Date() < deadline { usleep(10_000) }
        copier.signal(SIGKILL)
        _ = copier.waitForExit()
        let refused = try pb("paste")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("disconnected without handing over"), refused.stderr)
    }
}

extension OwnerExitTests {
    func testAReadPassesOverAnUnavailableRepresentationForAnAvailableOne() throws {
        let large = sandbox.path("large.bin")
        try Data(repeating: 9, count: 2 << 20).write(to: URL(fileURLWithPath: large))
        let copier = try ToolProcess("pb", ["copy", "--lazy", "--rep", "public.data=@\(large)", "--rep", "public.utf8-plain-text=caption"],
                                     environment: sandbox.environment(), in: sandbox)
        defer { copier.stop() }
        let deadline = Date().addingTimeInterval(20)
        while (try? listing()["items"] as? [[String: Any]])??.count != 1, Date() < deadline { usleep(10_000) }
        copier.signal(SIGTERM)
        XCTAssertEqual(copier.waitForExit(), 0)
        XCTAssertEqual(try pbOK("paste").stdoutText, "caption", "the lost first representation is passed over")
        XCTAssertEqual(try pbOK("paste", "-t", "public.data").stdoutText, "caption", "public.data is still satisfied, by the text")
        let lost = try pb("paste", "-t", "image")
        XCTAssertEqual(lost.status, 1)
        XCTAssertFalse(lost.stderr.contains("capture budget"), "a type nothing conforms to is not blamed on the lost one: \(lost.stderr)")
    }
}

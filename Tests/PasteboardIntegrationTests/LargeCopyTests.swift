import Foundation
import Glibc
import PasteboardDaemon
import TestSupport
import XCTest

/// Large eager copies on a durable daemon: the bytes are stored in `<state>/data` as they
/// arrive, so the daemon's memory does not grow with what it holds; they come back
/// byte-identical, survive kill -9, are shared rather than copied, and leave no file behind
/// when they fail or are replaced.
final class LargeCopyTests: IntegrationTestCase {
    /// How far the daemon's resident size may rise while it takes and serves a copy of 1 GiB:
    /// its credit window, NIO's buffers and the allocator's slack, never the copy.
    private static let daemonGrowthCeiling = 96 << 20

    private var dataDirectory: String { sandbox.stateDirectory + "/data" }

    private func storedFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dataDirectory)) ?? []).sorted()
    }

    override class var daemonArguments: [String] { ["--max-representation-size", "64G"] }

    /// Skips the test unless the sandbox's filesystem has `bytes` free: the test writes that much
    /// for real (a source, the stored copy, the pasted one), which no injected figure can replace.
    private func requireFreeSpace(_ bytes: Int) throws {
        var info = statvfs()
        guard statvfs(sandbox.root.path, &info) == 0 else { return }
        let free = Int(info.f_bavail) * Int(info.f_frsize)
        if free < bytes { throw XCTSkip("needs \(bytes >> 30) GiB free in \(sandbox.root.path), which has \(free >> 20) MiB") }
    }

    func testAGibibyteFileRoundTripsByteIdenticalWhileTheDaemonsMemoryStaysFlat() throws {
        let size = (1 << 30) + 1
        try requireFreeSpace(4 << 30)
        let source = try shell("head -c \(size) /dev/urandom > \"$0\"", sandbox.path("gibibyte"))
        let pid = daemon.process.processIdentifier
        let idle = try residentBytes(of: pid)
        try ProcessCounters.resetPeak(of: pid)

        try pbOK("copy", source)
        XCTAssertEqual(storedFiles().count, 1, "the copy is one stored file")
        let stored = try FileManager.default.attributesOfItem(atPath: dataDirectory + "/" + storedFiles()[0])
        XCTAssertEqual((stored[.size] as? NSNumber)?.intValue, size)
        XCTAssertTrue(try pastedEquals(source), "the pasted gibibyte differs from the copied one")

        let peak = try ProcessCounters.peakResidentBytes(of: pid)
        XCTAssertLessThan(peak - idle, Self.daemonGrowthCeiling,
                          "the daemon's memory grew by \((peak - idle) >> 20) MiB while it took and served 1 GiB")
        XCTAssertLessThan(try residentBytes(of: pid) - idle, Self.daemonGrowthCeiling, "the daemon holds the copy in memory")
    }

    func testAPipedCopyIsStoredSurvivesKill9IsHandedOffAndAReplacedOneLeavesNoFile() throws {
        let source = try shell("head -c \(256 << 20) /dev/urandom > \"$0\"", sandbox.path("piped"))
        let copy = try runTool("/bin/sh", ["-c", "cat \"$0\" | exec \"$1\" copy", source, Binaries.url("pb").path],
                               environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(copy.status, 0, copy.stderr)
        XCTAssertEqual(storedFiles().count, 1)

        try restartDaemon(Self.daemonArguments, kill9: true)
        let pid = daemon.process.processIdentifier
        let readBefore = try ProcessCounters.readBytes(of: pid)
        XCTAssertTrue(try pastedEquals(source), "the stored copy did not survive kill -9")
        XCTAssertLessThan(try ProcessCounters.readBytes(of: pid) - readBefore, 16 << 20,
                          "the stored file went through the daemon instead of being handed to pb")
        var environment = sandbox.environment()
        environment["PASTEBOARD_HANDOFF"] = "0"
        let inBand = try runTool("/bin/sh", ["-c", "\"$0\" paste | cmp - \"$1\"", Binaries.url("pb").path, source], environment: environment, in: sandbox)
        XCTAssertEqual(inBand.status, 0, "streamed through the daemon, the stored copy differs: \(inBand.stderr)")
        XCTAssertEqual(storedFiles().count, 1)

        try pbOK("history", "clear")
        try pbOK("copy", stdin: Data("small".utf8))
        XCTAssertTrue(eventually { self.storedFiles().isEmpty }, "the replaced copy's file stays: \(storedFiles())")
    }

    /// `pb paste | head` of a stored copy ends as quietly as a streamed one: the reader closing
    /// the pipe is no error to print, whether the bytes went through sendfile or through writes.
    func testAPasteWhoseReaderLeavesEarlyIsQuietWithOrWithoutTheKernelCopy() throws {
        let source = try shell("head -c \(8 << 20) /dev/urandom > \"$0\"", sandbox.path("early"))
        try pbOK("copy", source)
        XCTAssertEqual(storedFiles().count, 1)
        var streamed = sandbox.environment()
        streamed["PASTEBOARD_HANDOFF"] = "0"
        var outcomes: [String] = []
        for environment in [sandbox.environment(), streamed] {
            let run = try runTool("/bin/bash", ["-c", "\"$0\" paste | head -c 1 > /dev/null; echo \"${PIPESTATUS[0]}\"", Binaries.url("pb").path],
                                  environment: environment, in: sandbox)
            XCTAssertEqual(run.stderr, "", "the closed pipe is reported")
            outcomes.append(run.stdoutText)
        }
        XCTAssertEqual(outcomes[0], outcomes[1], "pb's status differs between the kernel copy and the streamed paste")
    }

    func testAStoredCopyPastesIntoANewFileAndAppendsToAnExistingOne() throws {
        let source = try randomFile("stored", size: 6 << 20)
        try pbOK("copy", source)
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        // `>`: the filesystem's own copy (copy_file_range); `>>`: O_APPEND, which refuses it,
        // so pb reads and writes; both give the bytes, the second after what was there.
        let written = sandbox.path("written"), appended = sandbox.path("appended")
        try Data("kept\n".utf8).write(to: URL(fileURLWithPath: appended))
        let result = try runTool("/bin/sh", ["-c", "\"$0\" paste > \"$1\" && \"$0\" paste >> \"$2\"", Binaries.url("pb").path, written, appended],
                                 environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: written)), data)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: appended)), Data("kept\n".utf8) + data)
    }

    func testAStoredFileTruncatedBehindTheDaemonsBackIsRefusedWhetherHandedOffOrStreamed() throws {
        let size = 2 << 20  // over SpoolPolicy.handoffMinimum: pb paste is handed the file
        let source = try randomFile("truncated", size: size)
        try pbOK("copy", source)
        XCTAssertEqual(storedFiles().count, 1)
        XCTAssertEqual(truncate(dataDirectory + "/" + storedFiles()[0], off_t(size / 2)), 0)
        let reason = "holds \(size / 2) bytes, not the \(size) stored"

        let handedOff = try pb("paste")
        XCTAssertEqual(handedOff.status, 1, "a truncated stored file was handed to pb")
        XCTAssertEqual(handedOff.stdout.count, 0, "pb wrote bytes of a truncated stored file")
        XCTAssertTrue(handedOff.stderr.contains("the stored bytes are missing or damaged"), handedOff.stderr)
        XCTAssertTrue(handedOff.stderr.contains(reason), handedOff.stderr)

        var environment = sandbox.environment()
        environment["PASTEBOARD_HANDOFF"] = "0"
        let streamed = try runTool("pb", ["paste"], environment: environment, in: sandbox)
        XCTAssertEqual(streamed.status, 1, "a truncated stored file was streamed")
        XCTAssertEqual(streamed.stdout.count, 0, "pb wrote bytes of a truncated stored file")
        XCTAssertTrue(streamed.stderr.contains(reason), streamed.stderr)
    }

    func testASensitiveLargeCopyNeverTouchesTheDisk() throws {
        let secret = Data(repeating: 0x5A, count: 2 << 20)
        try pbOK("copy", "--sensitive", stdin: secret)
        XCTAssertEqual(try pbOK("paste").stdout, secret)
        XCTAssertEqual(storedFiles(), [], "a sensitive item's bytes were stored on disk")
        let marked = try runTool("/bin/sh", ["-c", "head -c 2097152 /dev/zero | exec \"$0\" copy --rep org.nspasteboard.ConcealedType= --rep public.data=-",
                                              Binaries.url("pb").path], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(marked.status, 0, marked.stderr)
        XCTAssertEqual(storedFiles(), [], "an item marked secret by its type had its bytes stored on disk")
    }

    func testTheFreeSpaceIsCheckedBeforeAnyByteIsStoredAndThePreviousContentStays() throws {
        try pbOK("copy", stdin: Data("previous".utf8))
        // The disk this test runs on has whatever free space it has: the daemon is told it has
        // 1 GiB (the in-process server with the spool's free-space call replaced), and the copy
        // is a sparse 2 GiB file (no disk used), under max-representation-size and over the space.
        stopDaemon(kill9: true)
        let live = SpoolSystem.live
        let oneGiBFree = SpoolSystem(openTemporary: live.openTemporary, write: live.write, freeBytes: { _ in 1 << 30 }, observe: live.observe)
        inProcessDaemon = try InProcessDaemon.started(in: sandbox, arguments: Self.daemonArguments, spoolSystem: oneGiBFree)
        let huge = sandbox.path("huge")
        try shell("truncate -s 2G \"$0\"", huge)

        let refused = try pb("copy", huge)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("pasteboard 'general' was not changed: not enough free space"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("pasteboardd keeps 256.0 MiB free"), refused.stderr)
        XCTAssertEqual(try pbOK("paste").stdoutText, "previous")
        XCTAssertEqual(storedFiles(), [])
    }

    func testThePrimarySelectionsLargeDataIsScratchAndGoesWithItsContent() throws {
        let source = try randomFile("selected", size: 4 << 20)
        try pbOK("copy", "-p", "primary", source)
        XCTAssertEqual(storedFiles().count, 1, "primary's large data is stored, not held in memory")
        XCTAssertTrue(try runTool("/bin/sh", ["-c", "\"$0\" paste -p primary | cmp - \"$1\"", Binaries.url("pb").path, source],
                                  environment: sandbox.environment(), in: sandbox).status == 0)
        try pbOK("copy", "-p", "primary", stdin: Data("short".utf8))
        XCTAssertTrue(eventually { self.storedFiles().isEmpty }, "primary's replaced data stays on disk: \(storedFiles())")

        try pbOK("copy", "-p", "primary", source)
        try restartDaemon(Self.daemonArguments, kill9: true)
        XCTAssertEqual(storedFiles(), [], "primary is not kept across a restart, and neither are its stored bytes")
    }

    func testWhatMustStayInMemoryIsCappedByMaxInMemorySizeAndTheRefusalSaysWhy() throws {
        try restartDaemon(["--max-in-memory-size", "1M"], kill9: true)
        try pbOK("copy", stdin: Data("previous".utf8))
        let secret = try pb("copy", "--sensitive", stdin: Data(repeating: 1, count: 2 << 20))
        XCTAssertEqual(secret.status, 1)
        XCTAssertTrue(secret.stderr.contains("over max-in-memory-size (1.0 MiB): sensitive items are kept in memory only"), secret.stderr)
        XCTAssertEqual(try pbOK("paste").stdoutText, "previous")
        try pbOK("copy", stdin: Data(repeating: 2, count: 2 << 20))
        XCTAssertEqual(storedFiles().count, 1, "an ordinary copy over the memory cap is stored on disk")

        daemon.stop()
        daemon = try DaemonProcess.started(in: sandbox, arguments: ["--memory-only", "--max-in-memory-size", "1M"])
        let refused = try pb("copy", stdin: Data(repeating: 3, count: 2 << 20))
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("over max-in-memory-size (1.0 MiB): the daemon runs --memory-only"), refused.stderr)
    }

    func testWhatACrashLeftInTheDataDirectoryIsSweptAtStartAndTheContentKept() throws {
        let source = try randomFile("kept", size: 1 << 20)
        try pbOK("copy", source)
        let kept = storedFiles()
        XCTAssertEqual(kept.count, 1)
        // What a crash between the stored file and its record, or mid-copy without O_TMPFILE,
        // leaves: an orphan no record names, and a temporary file.
        let orphan = String(repeating: "ab", count: 16) + ".bytes"
        let temporary = String(repeating: "cd", count: 16) + ".bytes.tmp"
        let stranger = "notes.txt"  // not a name the daemon makes: left alone
        for name in [orphan, temporary, stranger] {
            XCTAssertTrue(FileManager.default.createFile(atPath: dataDirectory + "/" + name, contents: Data(repeating: 1, count: 4096),
                                                         attributes: [.posixPermissions: 0o600]))
        }
        try restartDaemon(Self.daemonArguments, kill9: true)
        XCTAssertEqual(storedFiles(), (kept + [stranger]).sorted(), "the leftovers were not swept, or the kept file went")
        XCTAssertTrue(daemon.log.contains("removed 2 stored files no pasteboard or history entry names"), daemon.log)
        XCTAssertTrue(try pastedEquals(source))
    }
}

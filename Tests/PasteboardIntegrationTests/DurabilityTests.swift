import Foundation
import Glibc
import TestSupport
import XCTest

/// Pasteboards kept on disk: acknowledged only once stored, restored after a restart (even
/// after kill -9), damaged archives skipped, a failed write leaving the old content.
final class DurabilityTests: IntegrationTestCase {
    func testEveryPasteboardAndItsChangeCountSurviveKill9() throws {
        try pbOK("copy", stdin: Data("kept across restarts".utf8))
        try pbOK("copy", "-p", "work", "--rep", "public.html=<b>Hi</b>", "--rep", "public.utf8-plain-text=Hi")
        try pbOK("copy", "-p", "work", "--rep", "public.html=<i>Hello</i>", "--rep", "public.utf8-plain-text=Hello")
        try pbOK("copy", "-p", "gone", stdin: Data("x".utf8))
        try pbOK("clear", "-p", "gone")
        let binary = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try binary.write(to: URL(fileURLWithPath: sandbox.path("blob.bin")))
        try pbOK("copy", "-p", "blob", sandbox.path("blob.bin"))
        var info = stat()
        XCTAssertEqual(stat(sandbox.stateDirectory, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700, "the state directory is private")

        try restartDaemon(kill9: true)

        XCTAssertEqual(try pbOK("paste").stdoutText, "kept across restarts")
        XCTAssertEqual(try changeCount("work"), 2)
        XCTAssertEqual(try pbOK("paste", "-p", "work", "-t", "text/html").stdoutText, "<i>Hello</i>")
        XCTAssertEqual(try pbOK("paste", "-p", "work", "-t", "text").stdoutText, "Hello")
        XCTAssertEqual(try changeCount("gone"), 2)
        XCTAssertEqual((try listing("gone")["items"] as? [Any])?.count, 0)
        XCTAssertEqual(try pbOK("paste", "-p", "blob").stdout, binary)
        let suggested = ((try listing("blob")["items"] as? [[String: Any]])?.first?["suggestedName"] as? String)
        XCTAssertEqual(suggested, "blob.bin")
        try pbOK("copy", stdin: Data("next".utf8))
        XCTAssertEqual(try changeCount(), 2, "change counts go on from where they were")
    }

    func testDamagedArchivesAreLoggedAndSkippedAndNeverServed() throws {
        try pbOK("copy", "-p", "good", stdin: Data("good".utf8))
        try pbOK("copy", "-p", "flipped", stdin: Data("this byte will flip".utf8))
        try pbOK("copy", "-p", "short", stdin: Data(repeating: 7, count: 5000))
        try restartDaemon(kill9: true)  // at start the journal's content goes to the pasteboards' own files
        daemon.kill9()
        let flipped = sandbox.stateDirectory + "/flipped.pasteboard"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: flipped))
        bytes[bytes.count - 8] ^= 0x20
        try bytes.write(to: URL(fileURLWithPath: flipped))
        let short = sandbox.stateDirectory + "/short.pasteboard"
        try Data(try Data(contentsOf: URL(fileURLWithPath: short)).prefix(2000)).write(to: URL(fileURLWithPath: short))
        try Data("not an archive".utf8).write(to: URL(fileURLWithPath: sandbox.stateDirectory + "/junk.pasteboard"))
        try Data("half".utf8).write(to: URL(fileURLWithPath: sandbox.stateDirectory + "/good.pasteboard.tmp"))
        daemon = try DaemonProcess.started(in: sandbox)

        XCTAssertEqual(try pbOK("paste", "-p", "good").stdoutText, "good")
        for name in ["flipped", "short", "junk"] {
            XCTAssertEqual(try changeCount(name), 0, "\(name) is not served")
            XCTAssertTrue(daemon.log.contains("\(name).pasteboard"), daemon.log)
        }
        XCTAssertTrue(daemon.log.contains("skipped a damaged pasteboard archive"), daemon.log)
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.stateDirectory + "/good.pasteboard.tmp"), "leftovers of an interrupted write are removed")
        try pbOK("copy", "-p", "flipped", stdin: Data("rewritten".utf8))
        try restartDaemon(kill9: true)
        XCTAssertEqual(try pbOK("paste", "-p", "flipped").stdoutText, "rewritten", "a new write replaces the damaged archive")
    }

    /// A file-size limit (EFBIG) met while a large copy is stored on disk, as a full disk
    /// (ENOSPC) would be: `storage-failed`, and the previous content stays.
    func testAFailedWriteIsReportedAndLeavesThePreviousContent() throws {
        try restartDaemon(kill9: true, fileSizeLimitKiB: 64)
        try pbOK("copy", stdin: Data("small and safe".utf8))
        let refused = try pb("copy", stdin: Data(repeating: 65, count: 8 << 20))
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("pasteboard 'general' was not changed"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("File too large"), refused.stderr)
        XCTAssertEqual(try pbOK("paste").stdoutText, "small and safe")
        XCTAssertEqual(try changeCount(), 1)
        try restartDaemon(kill9: true)
        XCTAssertEqual(try pbOK("paste").stdoutText, "small and safe", "the old archive is intact on disk too")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sandbox.stateDirectory).sorted(), ["daemon.lock", "data", "general.pasteboard", "history", "journal", "machine-id"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sandbox.stateDirectory + "/data"), [],
                       "the refused copy left no stored file")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sandbox.stateDirectory + "/history").count, 1,
                       "one history entry, for the copy that was stored; no temporary file")
    }

    func testWritesAfterTheLastCheckpointSurviveKill9InTheJournal() throws {
        try pbOK("copy", "-p", "first", stdin: Data("one".utf8))
        try pbOK("copy", "-p", "second", stdin: Data("two".utf8))
        try pbOK("copy", "-p", "second", stdin: Data("three".utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.stateDirectory + "/second.pasteboard"),
                       "small writes are in the journal, not yet in files of their own")
        try restartDaemon(kill9: true)
        XCTAssertEqual(try pbOK("paste", "-p", "first").stdoutText, "one")
        XCTAssertEqual(try pbOK("paste", "-p", "second").stdoutText, "three")
        XCTAssertEqual(try changeCount("second"), 2)
        XCTAssertTrue(FileManager.default.fileExists(atPath: sandbox.stateDirectory + "/second.pasteboard"),
                      "at start, what only the journal held goes to the pasteboard's own file")
        XCTAssertEqual(try journalSize(), 8, "and the journal is emptied")
    }

    func testConcurrentCopiesCommittedTogetherAllSurviveKill9() throws {
        let copies = try (0..<24).map { index in
            let file = sandbox.path("copy-\(index).txt")
            try Data("copy number \(index)".utf8).write(to: URL(fileURLWithPath: file))
            return try startPB("copy", "-p", "concurrent-\(index)", file)
        }
        for (index, copy) in copies.enumerated() { XCTAssertEqual(copy.waitForExit(), 0, "copy \(index): \(copy.stderrLines)") }
        try restartDaemon(kill9: true)
        for index in 0..<24 {
            XCTAssertEqual(try pbOK("paste", "-p", "concurrent-\(index)").stdoutText, "copy number \(index)")
        }
    }

    func testAJournalRecordCutShortIsIgnoredAndTheWholeOnesBeforeItKept() throws {
        try pbOK("copy", "-p", "kept", stdin: Data("whole record".utf8))
        daemon.kill9()
        let journal = try FileHandle(forWritingTo: URL(fileURLWithPath: sandbox.stateDirectory + "/journal"))
        // Where the next append would have gone: after the whole records, into the zeros the
        // daemon writes ahead of them.
        let end = try journalRecordsEnd()
        try journal.seek(toOffset: UInt64(end))
        try journal.write(contentsOf: Data([0, 0, 4, 0]) + Data("PBSTATE1 and then the crash".utf8))
        try journal.close()
        daemon = try DaemonProcess.started(in: sandbox)
        XCTAssertEqual(try pbOK("paste", "-p", "kept").stdoutText, "whole record")
        XCTAssertTrue(daemon.log.contains("the journal ends in a write that was never acknowledged"), daemon.log)
        XCTAssertTrue(daemon.log.contains("at byte \(end)"), "the log says where the cut record starts: \(daemon.log)")
        try pbOK("copy", "-p", "after", stdin: Data("written after".utf8))
        try restartDaemon(kill9: true)
        XCTAssertEqual(try pbOK("paste", "-p", "after").stdoutText, "written after")
        XCTAssertEqual(try pbOK("paste", "-p", "kept").stdoutText, "whole record")
    }

    func testADamagedJournalIsSetAsideAndTheArchivesStillServed() throws {
        try pbOK("copy", "-p", "archived", stdin: Data("in its own file".utf8))
        try restartDaemon(kill9: true)
        daemon.kill9()
        try Data("not a journal at all".utf8).write(to: URL(fileURLWithPath: sandbox.stateDirectory + "/journal"))
        daemon = try DaemonProcess.started(in: sandbox)
        XCTAssertEqual(try pbOK("paste", "-p", "archived").stdoutText, "in its own file")
        XCTAssertTrue(daemon.log.contains("set aside a damaged journal"), daemon.log)
        XCTAssertEqual(try String(contentsOfFile: sandbox.stateDirectory + "/journal.damaged", encoding: .utf8), "not a journal at all",
                       "kept for inspection")
        try pbOK("copy", "-p", "archived", stdin: Data("newer".utf8))
        try restartDaemon(kill9: true)
        XCTAssertEqual(try pbOK("paste", "-p", "archived").stdoutText, "newer", "a fresh journal takes new writes")
    }

    func testAFullJournalRefusesTheWriteAndKeepsEveryEarlierOne() throws {
        try restartDaemon(kill9: true, fileSizeLimitKiB: 64)
        try pbOK("copy", "-p", "a", stdin: Data(repeating: 97, count: 30_000))
        try pbOK("copy", "-p", "b", stdin: Data(repeating: 98, count: 30_000))
        let refused = try pb("copy", "-p", "c", stdin: Data(repeating: 99, count: 30_000))
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("pasteboard 'c' was not changed"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("File too large"), refused.stderr)
        XCTAssertEqual(try changeCount("c"), 0)
        try pbOK("copy", "-p", "d", stdin: Data("small enough".utf8))
        try restartDaemon(kill9: true)
        XCTAssertFalse(daemon.log.contains("never acknowledged"), "the refused write left no partial record: \(daemon.log)")
        XCTAssertEqual(try pbOK("paste", "-p", "a").stdout, Data(repeating: 97, count: 30_000))
        XCTAssertEqual(try pbOK("paste", "-p", "b").stdout, Data(repeating: 98, count: 30_000))
        XCTAssertEqual(try changeCount("c"), 0)
        XCTAssertEqual(try pbOK("paste", "-p", "d").stdoutText, "small enough")
    }

    func testTheJournalIsCheckpointedIntoFilesAsItGrows() throws {
        let item = sandbox.path("item.bin")
        for round in 0..<80 {
            try Data(repeating: UInt8(round), count: 60_000).write(to: URL(fileURLWithPath: item))
            try pbOK("copy", "-p", "growing", item)
        }
        XCTAssertLessThan(try journalSize(), 4 << 20, "80 writes of 60 KB would make 4.8 MB; a checkpoint emptied it on the way")
        XCTAssertTrue(FileManager.default.fileExists(atPath: sandbox.stateDirectory + "/growing.pasteboard"))
        try restartDaemon(kill9: true)
        XCTAssertEqual(try pbOK("paste", "-p", "growing").stdout, Data(repeating: 79, count: 60_000))
        XCTAssertEqual(try changeCount("growing"), 80)
    }

    func testAClearedPasteboardsContentLeavesTheDisk() throws {
        try pbOK("copy", "-p", "notes", stdin: Data("meet at the old mill".utf8))
        XCTAssertTrue(try stateFilesContain("old mill"))
        try pbOK("clear", "-p", "notes")
        XCTAssertFalse(try stateFilesContain("old mill"), "neither a file nor the journal keeps what was cleared")
        try restartDaemon(kill9: true)
        XCTAssertEqual(try changeCount("notes"), 2)
        XCTAssertEqual((try listing("notes")["items"] as? [Any])?.count, 0)
    }

    /// Where the journal's records end: the zeros the daemon writes ahead of them start there.
    private func journalRecordsEnd() throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: sandbox.stateDirectory + "/journal")))
        var offset = 8
        while offset + 4 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if length == 0 { break }
            offset += 4 + length
        }
        return offset
    }

    private func journalSize() throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: sandbox.stateDirectory + "/journal")[.size] as? Int) ?? -1
    }

    func testMemoryOnlyWritesNothing() throws {
        try restartDaemon(["--memory-only"], kill9: true)
        try pbOK("copy", stdin: Data("ephemeral".utf8))
        // The lock file the durable daemon of setUp held stays (lock files are not removed: a
        // daemon starting meanwhile could lock a file already unlinked), and the machine id it
        // made; nothing else is there.
        XCTAssertEqual(((try? FileManager.default.contentsOfDirectory(atPath: sandbox.stateDirectory)) ?? []).filter { $0 != "daemon.lock" && $0 != "machine-id" }, [])
        try restartDaemon(["--memory-only"], kill9: true)
        XCTAssertEqual(try changeCount(), 0)
    }
}

/// What becomes of promised data across a restart.
final class DurableCaptureTests: IntegrationTestCase {
    func testCapturedDataIsStoredAndUncapturedPromisesSayWhyAfterARestart() throws {
        daemon.stop()
        daemon = try DaemonProcess.started(in: sandbox, arguments: ["--capture-budget", "1048576"])
        try Data("captured text".utf8).write(to: URL(fileURLWithPath: sandbox.path("small.txt")))
        try Data(repeating: 1, count: 2 << 20).write(to: URL(fileURLWithPath: sandbox.path("large.bin")))
        let small = try ToolProcess("pb", ["copy", "--lazy", sandbox.path("small.txt")], environment: sandbox.environment(), in: sandbox)
        defer { small.stop() }
        XCTAssertTrue(eventually { (try? self.changeCount()) == 1 })
        small.signal(SIGTERM)
        XCTAssertEqual(small.waitForExit(), 0)
        let large = try ToolProcess("pb", ["copy", "-p", "big", "--lazy", sandbox.path("large.bin")], environment: sandbox.environment(), in: sandbox)
        defer { large.stop() }
        XCTAssertTrue(eventually { (try? self.changeCount("big")) == 1 })
        large.signal(SIGTERM)
        XCTAssertEqual(large.waitForExit(), 0)

        daemon.kill9()
        daemon = try DaemonProcess.started(in: sandbox)
        XCTAssertEqual(try pbOK("paste").stdoutText, "captured text", "captured data survives the restart")
        let unavailable = try pb("paste", "-p", "big")
        XCTAssertEqual(unavailable.status, 1)
        XCTAssertTrue(unavailable.stderr.contains("capture budget"), unavailable.stderr)
    }

    func testALargeCaptureIsStoredOnDiskAndSurvivesARestart() throws {
        let source = try randomFile("captured.bin", size: 8 << 20)
        let lazy = try ToolProcess("pb", ["copy", "--lazy", source], environment: sandbox.environment(), in: sandbox)
        defer { lazy.stop() }
        XCTAssertTrue(eventually { (try? self.changeCount()) == 1 })
        lazy.signal(SIGTERM)
        XCTAssertEqual(lazy.waitForExit(), 0)
        let data = sandbox.stateDirectory + "/data"
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: data).count, 1, "the 8 MiB capture is a stored file, not memory")

        daemon.kill9()
        daemon = try DaemonProcess.started(in: sandbox)
        XCTAssertTrue(try pastedEquals(source), "the captured bytes did not survive the restart")
    }
}

import Foundation
import Pasteboard
import PasteboardTypes
import XCTest

/// The general pasteboard's history through `pb history`: what enters it (and what never does),
/// its bounds, restore, search, clear, and how it lasts across a daemon restart.
final class HistoryTests: IntegrationTestCase {
    /// `pb history --json` decoded: the entries, newest first.
    private func history(file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let result = try pbOK("history", "--json", file: file, line: line)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]], result.stdoutText, file: file, line: line)
    }

    /// The previews of the entries, newest first.
    private func previews(file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try history(file: file, line: line).map { $0["preview"] as? String ?? "-" }
    }

    /// Each entry's items' types, newest first.
    private func types(of entry: [String: Any]) -> [[String]] {
        (entry["items"] as? [[String: Any]] ?? []).map { item in
            (item["representations"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
        }
    }

    private var historyDirectory: String { sandbox.stateDirectory + "/history" }

    /// The entry files in the state directory's history. New entries are written to the
    /// journal first and get their file at a checkpoint (one is made at every start); the
    /// files of entries that leave go at once.
    private func entryFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: historyDirectory)) ?? []).filter { $0.hasSuffix(".entry") }.sorted()
    }

    // MARK: - Recording

    func testCopiesAreRecordedNewestFirstAndTheCurrentOneIsMarked() throws {
        try pbOK("copy", stdin: Data("first copy".utf8))
        try pbOK("copy", "--rep", "public.html=<b>second</b>", "--rep", "public.utf8-plain-text=second copy")
        try pbOK("copy", stdin: Data("third\ncopy,\tacross lines".utf8))
        try pbOK("copy", "-p", "work", stdin: Data("another pasteboard".utf8))

        let entries = try history()
        XCTAssertEqual(entries.map { $0["preview"] as? String }, ["third\ncopy,\tacross lines", "second copy", "first copy"],
                       "newest first; other pasteboards keep no history")
        XCTAssertEqual(entries.map { $0["index"] as? Int }, [0, 1, 2])
        XCTAssertEqual(entries.map { $0["changeCount"] as? Int }, [3, 2, 1])
        XCTAssertEqual(entries.map { $0["current"] as? Bool }, [true, nil, nil], "only entry 0 is the current content")
        XCTAssertEqual(types(of: entries[1]), [["public.html", "public.utf8-plain-text"]], "every representation is kept")
        XCTAssertEqual(entries[1]["size"] as? Int, "<b>second</b>".utf8.count + "second copy".utf8.count)
        let now = Date().timeIntervalSince1970
        for entry in entries {
            let time = try XCTUnwrap(entry["time"] as? Double)
            XCTAssertLessThan(abs(time - now), 600, "the time of the copy, in seconds since 1970")
        }

        let lines = try pbOK("history").stdoutText.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, lines.joined(separator: "\n"))
        let fields = lines[0].components(separatedBy: "  ")
        XCTAssertEqual(fields.first, "0")
        XCTAssertNotNil(fields[1].range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$"#, options: .regularExpression), lines[0])
        XCTAssertEqual(fields[2], "public.utf8-plain-text")
        XCTAssertEqual(fields[3], "24 bytes")
        XCTAssertEqual(fields.last, "third copy, across lines", "the preview is one line")
        XCTAssertTrue(lines[1].hasPrefix("1  "), lines[1])
        XCTAssertTrue(lines[1].contains("  public.html,public.utf8-plain-text  "), lines[1])
        XCTAssertTrue(lines[1].hasSuffix("  second copy"), lines[1])
    }

    func testRepeatedContentIsKeptOnceAndAClearIsNotAnEntry() throws {
        // Copies seconds apart: without the rule for transient copies, under which the clear
        // below would take alpha for one (PasswordManagerTests covers it).
        try restartDaemon(["--history-transient-seconds", "0"], kill9: true)
        try pbOK("copy", stdin: Data("alpha".utf8))
        try pbOK("copy", stdin: Data("beta".utf8))
        try pbOK("copy", stdin: Data("beta".utf8))
        XCTAssertEqual(try previews(), ["beta", "alpha"], "a consecutive identical copy adds no entry")
        XCTAssertEqual(try history().first?["changeCount"] as? Int, 3, "it moves the entry to its new change count")
        try pbOK("copy", stdin: Data("alpha".utf8))
        XCTAssertEqual(try previews(), ["alpha", "beta"], "copying an older entry's content moves it to the top")

        try pbOK("clear")
        let entries = try history()
        XCTAssertEqual(entries.count, 2, "a clear is not an entry")
        XCTAssertNil(entries.first?["current"], "after a clear no entry is the current content")
    }

    func testALongPreviewIsCutOnOneLine() throws {
        let long = String(repeating: "word ", count: 100)
        try pbOK("copy", stdin: Data(long.utf8))
        let preview = try XCTUnwrap(try history().first?["preview"] as? String)
        XCTAssertEqual(preview.count, 100, "the daemon sends the first 100 characters")
        let line = try pbOK("history").stdoutText.trimmingCharacters(in: .newlines)
        let shown = try XCTUnwrap(line.components(separatedBy: "  ").last)
        XCTAssertEqual(shown.count, 60)
        XCTAssertTrue(shown.hasSuffix("…"), shown)
        XCTAssertEqual(line.split(separator: "\n").count, 1)
    }

    func testSensitiveAndExpiringCopiesNeverEnterTheHistoryNorTheDisk() async throws {
        try pbOK("copy", stdin: Data("ordinary".utf8))
        try pbOK("copy", "--sensitive", stdin: Data("hunter2-secret".utf8))
        try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "keepass", autoStart: false) { connection in
            var item = ItemProvider()
            item.registerData(Array("s3cr3t-pw".utf8), for: .utf8PlainText)
            item.registerData(Array("secret".utf8), for: TypeIdentifier(rawValue: "org.nspasteboard.ConcealedType"))
            try await Pasteboard(connection: connection).setItems([item])
        }
        XCTAssertEqual(try pbOK("paste", "-t", "text").stdoutText, "s3cr3t-pw")
        try pbOK("copy", "--expire", "600", stdin: Data("short-lived".utf8))
        XCTAssertEqual(try pbOK("paste").stdoutText, "short-lived", "each copy did reach the pasteboard")

        XCTAssertEqual(try previews(), ["ordinary"])
        XCTAssertEqual(try pb("history", "search", "hunter2").status, 1)
        XCTAssertEqual(try pb("history", "search", "s3cr3t").status, 1)
        XCTAssertTrue(try stateFilesContain("ordinary"), "the ordinary copy is on disk (in the journal)")
        for secret in ["hunter2-secret", "s3cr3t-pw"] {
            XCTAssertFalse(try stateFilesContain(secret), "\(secret) reached the disk")
            XCTAssertFalse(daemon.log.contains(secret), daemon.log)
        }
        try restartDaemon(kill9: true)
        XCTAssertEqual(try previews(), ["ordinary"])
        XCTAssertEqual(entryFiles().count, 1, "the start's checkpoint gave the entry its file")
        for secret in ["hunter2-secret", "s3cr3t-pw"] { XCTAssertFalse(try stateFilesContain(secret), "\(secret) reached the disk") }
    }

    // MARK: - Bounds

    func testTheCountBoundDropsTheOldest() throws {
        try restartDaemon(["--history-items", "3"], kill9: true)
        for text in ["one", "two", "three", "four", "five"] { try pbOK("copy", stdin: Data(text.utf8)) }
        XCTAssertEqual(try previews(), ["five", "four", "three"])
        try restartDaemon(["--history-items", "3"], kill9: true)
        XCTAssertEqual(try previews(), ["five", "four", "three"], "kept across kill -9")
        XCTAssertEqual(entryFiles().count, 3, "dropped entries have no file: \(entryFiles())")

        try restartDaemon(["--history-items", "2"], kill9: true)
        XCTAssertEqual(try previews(), ["five", "four"], "a lower bound at start drops the oldest")
        XCTAssertEqual(entryFiles().count, 2, "and its file at once")

        try restartDaemon(["--history-items", "0"], kill9: true)
        XCTAssertEqual(try pbOK("history").stdoutText, "(empty)\n")
        try pbOK("copy", stdin: Data("six".utf8))
        XCTAssertEqual(try history().count, 0, "0 keeps no history")
        XCTAssertEqual(entryFiles(), [])
        XCTAssertEqual(try pbOK("paste").stdoutText, "six", "copies work as ever")
    }

    func testTheByteBoundDropsTheOldestAndKeepsNoEntryLargerThanItAll() throws {
        try restartDaemon(["--history-bytes", "100"], kill9: true)
        let a = String(repeating: "a", count: 40), b = String(repeating: "b", count: 40), c = String(repeating: "c", count: 40)
        for text in [a, b, c] { try pbOK("copy", stdin: Data(text.utf8)) }
        XCTAssertEqual(try previews(), [c, b], "120 bytes do not fit in 100: the oldest left")
        try restartDaemon(["--history-bytes", "100"], kill9: true)
        XCTAssertEqual(try previews(), [c, b], "kept across kill -9")
        XCTAssertEqual(entryFiles().count, 2)

        let large = String(repeating: "L", count: 150)
        try pbOK("copy", stdin: Data(large.utf8))
        XCTAssertEqual(try pbOK("paste").stdoutText, large, "the copy itself is not limited")
        let entries = try history()
        XCTAssertEqual(entries.map { $0["preview"] as? String }, [c, b], "larger than the whole budget: not kept, and nothing dropped for it")
        XCTAssertNil(entries.first?["current"])
    }

    // MARK: - Restore, search, clear

    func testRestoreMakesAnOldEntryCurrentAndWatchersSeeIt() throws {
        try pbOK("copy", "--rep", "public.html=<i>old</i>", "--rep", "public.utf8-plain-text=old")
        try pbOK("copy", stdin: Data("middle".utf8))
        try pbOK("copy", stdin: Data("newest".utf8))
        let watch = try startPB("watch")
        let deadline = Date().addingTimeInterval(20)
        func watched() -> String { (try? String(contentsOfFile: watch.stdoutPath, encoding: .utf8)) ?? "" }
        while !watched().contains("3 "), Date() < deadline { usleep(10_000) }

        try pbOK("history", "restore", "2")

        XCTAssertEqual(try changeCount(), 4, "a restore is a new change")
        XCTAssertEqual(try pbOK("paste", "-t", "text/html").stdoutText, "<i>old</i>")
        XCTAssertEqual(try pbOK("paste", "-t", "text").stdoutText, "old")
        while !watched().contains("4 public.html,public.utf8-plain-text"), Date() < deadline { usleep(10_000) }
        XCTAssertTrue(watched().contains("4 public.html,public.utf8-plain-text\n"), watched())
        let entries = try history()
        XCTAssertEqual(entries.map { $0["preview"] as? String }, ["old", "newest", "middle"], "the restored entry moves to the top, once")
        XCTAssertEqual(entries.first?["changeCount"] as? Int, 4)
        XCTAssertEqual(entries.first?["current"] as? Bool, true)

        try pbOK("history", "restore", "0")
        XCTAssertEqual(try changeCount(), 4, "restoring the current content changes nothing")
    }

    func testRestoringAMissingEntryFailsClearlyAndChangesNothing() throws {
        try pbOK("copy", stdin: Data("kept one".utf8))
        try pbOK("copy", stdin: Data("kept two".utf8))
        let before = try pbOK("history", "--json").stdout

        let missing = try pb("history", "restore", "5")
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "pb: the history has no entry 5: its entries are 0 to 1\n")
        XCTAssertEqual(try pb("history", "restore", "two").status, 2, "not a number: a usage error")
        XCTAssertEqual(try pb("history", "restore").status, 2)
        XCTAssertEqual(try pb("history", "restore", "--", "-1").status, 2)

        XCTAssertEqual(try changeCount(), 2)
        XCTAssertEqual(try pbOK("paste").stdoutText, "kept two")
        XCTAssertEqual(try pbOK("history", "--json").stdout, before)

        try pbOK("history", "clear")
        let empty = try pb("history", "restore", "0")
        XCTAssertEqual(empty.status, 1)
        XCTAssertTrue(empty.stderr.contains("the history is empty"), empty.stderr)
    }

    func testSearchFindsEntriesByTheirTextIgnoringCase() throws {
        try pbOK("copy", stdin: Data("Hello World".utf8))
        try pbOK("copy", stdin: Data("something else".utf8))
        try PNGFixture.make(width: 4, height: 4).write(to: URL(fileURLWithPath: sandbox.path("a.png")))
        try pbOK("copy", "--rep", "public.html=<p>say HELLO again</p>", "--rep", "public.png=@\(sandbox.path("a.png"))")
        try pbOK("copy", sandbox.path("a.png"))

        let lines = try pbOK("history", "search", "hello").stdoutText.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.map { $0.components(separatedBy: "  ").first }, ["1", "3"], "indices in the whole history, newest first")
        XCTAssertTrue(lines[1].hasSuffix("  Hello World"), lines[1])
        let json = try pbOK("history", "search", "--json", "HeLLo").stdout
        let found = try XCTUnwrap(JSONSerialization.jsonObject(with: json) as? [[String: Any]])
        XCTAssertEqual(found.map { $0["index"] as? Int }, [1, 3])

        let none = try pb("history", "search", "absent text")
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.stdoutText, "")
        XCTAssertTrue(none.stderr.contains("no history entry contains 'absent text'"), none.stderr)
        XCTAssertEqual(try pb("history", "search", "").status, 2)

        try pbOK("history", "restore", "3")
        XCTAssertEqual(try pbOK("paste").stdoutText, "Hello World", "what search found can be restored by its index")
        let image = try pbOK("history").stdoutText.split(separator: "\n").first { $0.contains("public.png") && !$0.contains("html") }
        XCTAssertTrue(image?.hasSuffix("  [a.png]") == true, "an entry without text shows its name: \(String(describing: image))")
    }

    func testClearEmptiesTheHistoryInMemoryAndOnDisk() throws {
        try pbOK("copy", stdin: Data("to forget".utf8))
        try pbOK("copy", stdin: Data("current".utf8))
        XCTAssertTrue(try stateFilesContain("to forget"), "on disk before the clear")

        try pbOK("history", "clear")

        XCTAssertEqual(try pbOK("history").stdoutText, "(empty)\n")
        XCTAssertEqual(try pbOK("history", "--json").stdoutText, "[]\n")
        XCTAssertEqual(entryFiles(), [])
        XCTAssertFalse(try stateFilesContain("to forget"))
        XCTAssertEqual(try pbOK("paste").stdoutText, "current", "the current content stays")
        try restartDaemon(kill9: true)
        XCTAssertEqual(try history().count, 0)
        try pbOK("copy", stdin: Data("after".utf8))
        XCTAssertEqual(try previews(), ["after"])
    }

    // MARK: - Durability

    func testAnEntryMovedToTheTopOrDroppedStaysSoAfterKill9() throws {
        // x, y, x within seconds would make y a transient copy, which leaves at once (see
        // PasswordManagerTests): this is about entries moved and dropped by the bound.
        let ordinary = ["--history-transient-seconds", "0"]
        try restartDaemon(["--history-items", "3"] + ordinary, kill9: true)
        for text in ["x", "y", "x", "z", "w"] { try pbOK("copy", stdin: Data(text.utf8)) }
        XCTAssertEqual(try previews(), ["w", "z", "x"], "x moved to the top, then y was dropped")
        XCTAssertEqual(entryFiles(), [], "the entries are in the journal until a checkpoint")

        try restartDaemon(["--history-items", "30"] + ordinary, kill9: true)

        XCTAssertEqual(try previews(), ["w", "z", "x"], "the journal also records which entries left")
        XCTAssertEqual(entryFiles().count, 3)
        try pbOK("history", "restore", "2")
        try pbOK("copy", stdin: Data("v".utf8))
        try restartDaemon(["--history-items", "30"] + ordinary, kill9: true)
        XCTAssertEqual(try previews(), ["v", "x", "w", "z"], "a restored entry moved to the top, its old file gone")
        XCTAssertEqual(entryFiles().count, 4)
    }

    func testALargeEntrySharesItsStoredBytesWithTheContentAndSurvivesKill9() throws {
        let large = String(repeating: "large entry ", count: 10_000)  // 120 KB: over the 64 KiB kept in memory
        let data = sandbox.stateDirectory + "/data"
        try pbOK("copy", stdin: Data(large.utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: data).count, 1,
                       "the content and its history entry share one stored file")
        try pbOK("copy", stdin: Data("small".utf8))
        XCTAssertEqual(entryFiles(), [], "both entries are in the journal: the large one names its stored file")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: data).count, 1, "the entry keeps the stored file")

        try restartDaemon(kill9: true)

        XCTAssertEqual(try history().map { ($0["size"] as? Int) ?? -1 }, [5, large.utf8.count])
        XCTAssertEqual(try history().last?["preview"] as? String, String(large.prefix(100)), "the preview comes from the stored text")
        try pbOK("history", "restore", "1")
        XCTAssertEqual(try pbOK("paste").stdoutText, large)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: data).count, 1, "restoring the entry copies no bytes")
        // Released files go at the next checkpoint, which clearing the history makes.
        try pbOK("copy", stdin: Data("small again".utf8))
        try pbOK("history", "clear")
        let deadline = Date().addingTimeInterval(10)
        while (try FileManager.default.contentsOfDirectory(atPath: data).count) > 0, Date() < deadline { usleep(20_000) }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: data), [], "the stored file goes once nothing holds it")
    }

    func testTheHistorySurvivesARestartAndDamagedEntriesAreSkipped() throws {
        try pbOK("copy", stdin: Data("one".utf8))
        try pbOK("copy", "--rep", "public.html=<b>two</b>", "--rep", "public.utf8-plain-text=two")
        try pbOK("copy", stdin: Data("three".utf8))
        try pbOK("copy", stdin: Data("four".utf8))
        let before = try history()

        try restartDaemon(kill9: true)
        var info = stat()
        XCTAssertEqual(stat(historyDirectory, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700, "the history directory is private")

        let after = try history()
        XCTAssertEqual(after.map { $0["preview"] as? String }, before.map { $0["preview"] as? String })
        XCTAssertEqual(after.map { $0["changeCount"] as? Int }, [4, 3, 2, 1])
        XCTAssertEqual(after.map { $0["time"] as? Double }, before.map { $0["time"] as? Double })
        XCTAssertEqual(after.first?["current"] as? Bool, true)
        XCTAssertEqual(types(of: after[2]), [["public.html", "public.utf8-plain-text"]])
        try pbOK("history", "restore", "2")
        XCTAssertEqual(try pbOK("paste", "-t", "text/html").stdoutText, "<b>two</b>")
        XCTAssertEqual(try changeCount(), 5, "change counts go on from where they were")

        // Entry files (written at the restart's checkpoint): "one" is the oldest; corrupt it,
        // and leave a half-written file behind.
        try restartDaemon(kill9: true)
        daemon.kill9()
        let files = entryFiles()
        XCTAssertEqual(files.count, 4, files.joined(separator: " "))
        let oldest = historyDirectory + "/" + files[0]
        var bytes = try Data(contentsOf: URL(fileURLWithPath: oldest))
        bytes[bytes.count - 6] ^= 0x20
        try bytes.write(to: URL(fileURLWithPath: oldest))
        try Data("half".utf8).write(to: URL(fileURLWithPath: historyDirectory + "/0000000000000099.entry.tmp"))
        daemon = try DaemonProcess.started(in: sandbox)

        XCTAssertEqual(try previews(), ["two", "four", "three"], "the damaged entry is skipped, the others served")
        XCTAssertTrue(daemon.log.contains("skipped a damaged history entry"), daemon.log)
        XCTAssertTrue(daemon.log.contains(files[0]), daemon.log)
        XCTAssertFalse(FileManager.default.fileExists(atPath: historyDirectory + "/0000000000000099.entry.tmp"))
        try pbOK("copy", stdin: Data("five".utf8))
        XCTAssertEqual(try previews(), ["five", "two", "four", "three"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: oldest), "a damaged file stays for inspection")
        try pbOK("history", "clear")
        XCTAssertEqual(entryFiles(), [], "until the history is cleared")
    }

    func testAMemoryOnlyDaemonKeepsTheHistoryInMemoryOnly() throws {
        daemon.kill9()
        try? FileManager.default.removeItem(atPath: sandbox.stateDirectory)
        daemon = try DaemonProcess.started(in: sandbox, arguments: ["--memory-only"])
        try pbOK("copy", stdin: Data("volatile one".utf8))
        try pbOK("copy", stdin: Data("volatile two".utf8))
        XCTAssertEqual(try previews(), ["volatile two", "volatile one"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.stateDirectory), "nothing is written to disk")

        try restartDaemon(["--memory-only"], kill9: true)

        XCTAssertEqual(try history().count, 0)
    }

    /// A memory-only daemon keeps its history in memory, so the 1 GiB history-bytes default
    /// (sized for a disk) gives way to max-in-memory-size when that is smaller.
    func testAMemoryOnlyDaemonsHistoryHoldsNoMoreThanMaxInMemorySize() throws {
        daemon.kill9()
        try? FileManager.default.removeItem(atPath: sandbox.stateDirectory)
        daemon = try DaemonProcess.started(in: sandbox, arguments: ["--memory-only", "--max-in-memory-size", "100"])
        let a = String(repeating: "a", count: 40), b = String(repeating: "b", count: 40), c = String(repeating: "c", count: 40)
        for text in [a, b, c] { try pbOK("copy", stdin: Data(text.utf8)) }
        XCTAssertEqual(try previews(), [c, b], "120 bytes do not fit in max-in-memory-size 100: the oldest left")
    }

    // MARK: - Lazy data

    func testLazyDataEntersTheHistoryOnceHandedOverAndNeverWhileOnlyPromised() throws {
        let file = sandbox.path("lazy.txt")
        try Data("Lazy words handed over".utf8).write(to: URL(fileURLWithPath: file))
        let copier = try startPB("copy", "--lazy", file)
        try waitForLazyItems()
        var entries = try history()
        XCTAssertEqual(entries.count, 1)
        let representation = (entries.first?["items"] as? [[String: Any]])?.first?["representations"] as? [[String: Any]]
        XCTAssertEqual(representation?.first?["lazy"] as? Bool, true, "still promised by its source")
        XCTAssertNil(entries.first?["preview"], "the history has no bytes of it yet")
        XCTAssertEqual(entryFiles(), [], "nothing of a promise is on disk")

        copier.signal(SIGTERM)
        XCTAssertEqual(copier.waitForExit(), 0, copier.stderrLines.joined(separator: "\n"))
        entries = try history()
        XCTAssertEqual(entries.first?["preview"] as? String, "Lazy words handed over", "captured when its source left")
        XCTAssertEqual(try pbOK("history", "search", "handed").stdoutText.split(separator: "\n").count, 1)
        XCTAssertTrue(try stateFilesContain("Lazy words handed over"), "the captured bytes are stored")

        let gone = sandbox.path("gone.txt")
        try Data("never handed over".utf8).write(to: URL(fileURLWithPath: gone))
        let killed = try startPB("copy", "--lazy", gone)
        let deadline = Date().addingTimeInterval(20)
        while (try? history().count) != 2, Date() < deadline { usleep(10_000) }
        killed.signal(SIGKILL)
        _ = killed.waitForExit()
        while (try? history().count) != 1, Date() < deadline { usleep(10_000) }
        XCTAssertEqual(try previews(), ["Lazy words handed over"], "a promise never kept leaves nothing in the history")

        try restartDaemon(kill9: true)
        XCTAssertEqual(try previews(), ["Lazy words handed over"])
        try pbOK("history", "restore", "0")
        XCTAssertEqual(try pbOK("paste").stdoutText, "Lazy words handed over")
    }

    func testAHistoryLargerThanAFrameIsListedWhole() throws {
        try restartDaemon(["--max-frame-length", "65536"], kill9: true)
        for copy in 0..<5 {
            let files = try (0..<200).map { file -> String in
                let path = sandbox.path("c\(copy)-\(file).txt")
                try Data("copy \(copy) file \(file)".utf8).write(to: URL(fileURLWithPath: path))
                return path
            }
            try runToolOK(["copy"] + files)
        }

        let client = try RawClient(socketPath: sandbox.socketPath)
        defer { client.close() }
        XCTAssertEqual(try client.hello().op, "welcome")
        try client.sendMessage(["op": "history"], requestID: 1)
        let first = try XCTUnwrap(client.receive()?.json)
        let page = try XCTUnwrap(first["entries"] as? [[String: Any]])
        XCTAssertEqual(first["more"] as? Bool, true, "five entries of 200 items do not fit in 64 KiB")
        XCTAssertGreaterThan(page.count, 0)
        XCTAssertLessThan(page.count, 5)
        try client.sendMessage(["op": "history", "start": page.count], requestID: 2)
        let second = try XCTUnwrap(client.receive()?.json)
        XCTAssertEqual((second["entries"] as? [[String: Any]])?.first?["index"] as? Int, page.count, "the next page starts where asked")

        let entries = try history()
        XCTAssertEqual(entries.map { $0["index"] as? Int }, [0, 1, 2, 3, 4], "pb asks for every page")
        XCTAssertEqual(entries.map { ($0["items"] as? [Any])?.count }, [200, 200, 200, 200, 200])
        XCTAssertEqual(entries.first?["preview"] as? String, "copy 4 file 0")
        let found = try pbOK("history", "search", "FILE 0").stdoutText.split(separator: "\n")
        XCTAssertEqual(found.count, 5, "a search goes through every page too")
    }

    /// Runs `pb` with an argument list built at run time, failing the test unless it exits 0.
    private func runToolOK(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try runTool("pb", arguments, environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
    }

    // MARK: - Protocol

    func testTheProtocolRefusesBadHistoryRequests() throws {
        try pbOK("copy", stdin: Data("only".utf8))
        let client = try RawClient(socketPath: sandbox.socketPath)
        defer { client.close() }
        XCTAssertEqual(try client.hello().op, "welcome")

        try client.sendMessage(["op": "history-restore", "index": -1], requestID: 1)
        var answer = try XCTUnwrap(client.receive())
        XCTAssertEqual(answer.op, "error")
        XCTAssertEqual(answer.json?["code"] as? String, "invalid-argument")

        try client.sendMessage(["op": "history-restore", "index": 1], requestID: 2)
        answer = try XCTUnwrap(client.receive())
        XCTAssertEqual(answer.json?["code"] as? String, "no-such-entry")

        try client.sendMessage(["op": "history-restore"], requestID: 3)
        answer = try XCTUnwrap(client.receive())
        XCTAssertEqual(answer.json?["code"] as? String, "malformed-message")

        try client.sendMessage(["op": "history-search", "text": ""], requestID: 4)
        answer = try XCTUnwrap(client.receive())
        XCTAssertEqual(answer.json?["code"] as? String, "invalid-argument")

        try client.sendMessage(["op": "history-search", "text": "ONL"], requestID: 5)
        answer = try XCTUnwrap(client.receive())
        XCTAssertEqual(answer.op, "history-list")
        XCTAssertEqual((answer.json?["entries"] as? [[String: Any]])?.first?["preview"] as? String, "only")

        try client.sendMessage(["op": "history"], requestID: 6)
        answer = try XCTUnwrap(client.receive())
        XCTAssertEqual(answer.requestID, 6)
        XCTAssertEqual((answer.json?["entries"] as? [Any])?.count, 1)
        XCTAssertEqual(try pbOK("paste").stdoutText, "only", "nothing changed")
    }
}

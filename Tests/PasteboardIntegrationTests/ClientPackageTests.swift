import Foundation
import XCTest

/// The notes app of Tests/Interop/NotesApp, a third-party client built as its own package
/// against the library (Swift 6 mode, warnings as errors, all pasteboard calls from a
/// @MainActor view model), against a real daemon with `pb` and a second notes process on the
/// other side: its declared type, its Transferable representations, copy-and-serve, paste with
/// a fallback to text, and drag and drop.
final class ClientPackageTests: DragDropTestCase {
    /// Runs `notes` to completion against this test's daemon.
    private func notes(_ arguments: String...) throws -> ProcessResult {
        try runTool(ClientPackage.notes(), arguments, environment: sandbox.environment(), in: sandbox)
    }

    /// Runs `notes`, fails the test unless it exits 0, and returns its `key: value` lines.
    private func notesOK(_ arguments: String..., line: UInt = #line) throws -> [String: String] {
        let result = try runTool(ClientPackage.notes(), arguments, environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(result.status, 0, "notes \(arguments.joined(separator: " ")): \(result.stderr)", line: line)
        return fields(result.stdoutText)
    }

    /// The `key: value` lines of what notes printed.
    private func fields(_ output: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let colon = line.range(of: ": ") else { continue }
            fields[String(line[..<colon.lowerBound])] = String(line[colon.upperBound...])
        }
        return fields
    }

    /// The view model's progress as notes printed it ("41/41 in 1 reports") ended at `total`
    /// after at least one report: its progress closure updated its main-actor state.
    private func assertProgress(_ shown: String?, endsAt total: Int, line: UInt = #line) {
        XCTAssertEqual(shown?.components(separatedBy: " in ").first, "\(total)/\(total)", "progress: \(shown ?? "none")", line: line)
        let reports = shown?.components(separatedBy: " in ").last?.split(separator: " ").first.flatMap { Int($0) }
        XCTAssertGreaterThan(reports ?? 0, 0, "the progress closure never ran: \(shown ?? "none")", line: line)
    }

    func testACopiedNoteIsItsOwnTypeAPNGCardAndTextForPBAndServedUntilReplaced() throws {
        let copy = try start(ClientPackage.notes(), ["copy", "Groceries", "milk\neggs"])
        XCTAssertNotNil(copy.waitForLine { $0.contains("copied (change ") }, "the note was never copied: \(copy.stderrLines)")
        let item = try XCTUnwrap((listing()["items"] as? [[String: Any]])?.first)
        let representations = try XCTUnwrap(item["representations"] as? [[String: Any]])
        XCTAssertEqual(representations.compactMap { $0["type"] as? String }, ["com.example.note", "public.png", "public.utf8-plain-text"])
        XCTAssertEqual(representations.first?["mimeType"] as? String, "application/vnd.example.note+json",
                       "the type the app declared at connect reached the daemon")

        XCTAssertEqual(try pbOK("paste", "-t", "text").stdoutText, "Groceries\nmilk\neggs")
        let json = try pbOK("paste", "-t", "com.example.note").stdout
        XCTAssertEqual(try JSONSerialization.jsonObject(with: json) as? [String: String], ["title": "Groceries", "body": "milk\neggs"])
        let card = try pbOK("paste", "-t", "image").stdout
        XCTAssertEqual(Array(card.prefix(16)), [137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13] + Array("IHDR".utf8), "a PNG")
        XCTAssertEqual(Array(card.dropFirst(16).prefix(8)), [0, 0, 0, 52, 0, 0, 0, 24], "52×24: the card of a 9-letter title and 2 lines")

        let pasted = try notesOK("paste")
        XCTAssertEqual(pasted["title"], "Groceries")
        XCTAssertEqual(pasted["body"], "milk\\neggs")
        XCTAssertEqual(pasted["type"], "com.example.note", "a note comes back as a note, not as its text")
        assertProgress(pasted["progress"], endsAt: json.count)

        try pbOK("copy", stdin: Data("something else".utf8))
        XCTAssertEqual(copy.waitForExit(), 0, "the copy stops serving once replaced: \(copy.stderrLines)")
        XCTAssertEqual(try String(contentsOfFile: copy.stdoutPath, encoding: .utf8), "copy: replaced\n")
    }

    func testAnInterruptedCopyLeavesTheNoteWithTheDaemon() throws {
        let copy = try start(ClientPackage.notes(), ["copy", "Receipt", "total 12.50"])
        XCTAssertNotNil(copy.waitForLine { $0.contains("copied (change ") }, "the note was never copied: \(copy.stderrLines)")
        copy.signal(SIGINT)
        XCTAssertEqual(copy.waitForExit(), 0, "Ctrl-C ends the serving, not the process mid-serve: \(copy.stderrLines)")
        XCTAssertEqual(try String(contentsOfFile: copy.stdoutPath, encoding: .utf8), "copy: stopped; the daemon keeps the note\n")
        XCTAssertEqual(try pbOK("paste", "-t", "text").stdoutText, "Receipt\ntotal 12.50")
        XCTAssertEqual(try notesOK("paste")["type"], "com.example.note", "the daemon kept the note's own type too")
    }

    func testAMainActorKeptBusyGetsEveryProgressReportOnItselfInAnAppPackage() throws {
        // Long text: many progress reports while the app's main actor is busy 8 ms of every 10.
        let text = "Long note\n" + String(repeating: "a line of the note's body\n", count: 400_000)
        try pbOK("copy", stdin: Data(text.utf8))
        // MainActor.assertIsolated in the view model's progress closure ends the app if one runs elsewhere.
        let pasted = try notesOK("paste-busy")
        XCTAssertEqual(pasted["title"], "Long note")
        XCTAssertEqual(pasted["reports inside a job"], "0", "progress reports ran while the main actor was in another job")
        assertProgress(pasted["progress"], endsAt: text.utf8.count)
    }

    func testNotesInstalledThenUpgradedDeclaresItsNewTypeWithNoReload() throws {
        // Version 1 installs its declaration; the daemon reads it when it (re)starts.
        let installed = try notesOK("install")
        XCTAssertEqual(installed["installed"], sandbox.path("config/pasteboard/types.d/com.example.notes.json"))
        daemon.stop()
        daemon = try DaemonProcess.started(in: sandbox)
        try pbOK("copy", stdin: Data("Old\nversion one\n".utf8))
        XCTAssertEqual(try notesOK("paste")["title"], "Old")

        // Version 2 declares `.note` too: the daemon takes it from the app whose file it
        // replaces, with no SIGHUP and no restart (refused as a clash on b08da6d).
        var upgraded = sandbox.environment()
        upgraded["NOTES_VERSION"] = "2"
        let pasted = try runTool(ClientPackage.notes(), ["paste"], environment: upgraded, in: sandbox)
        XCTAssertEqual(pasted.status, 0, pasted.stderr)
        XCTAssertEqual(fields(pasted.stdoutText)["title"], "Old")
        var shown = try pbOK("types", "com.example.note").stdoutText
        XCTAssertTrue(shown.contains("  extensions: note\n"), shown)
        XCTAssertTrue(shown.contains("  source: declared by notes\n"), shown)
        // Its installer writes the new file; version 2 still connects, and a reload keeps it.
        let reinstalled = try runTool(ClientPackage.notes(), ["install"], environment: upgraded, in: sandbox)
        XCTAssertEqual(reinstalled.status, 0, reinstalled.stderr)
        XCTAssertEqual(try runTool(ClientPackage.notes(), ["paste"], environment: upgraded, in: sandbox).status, 0)
        daemon.signal(SIGHUP)
        XCTAssertTrue(daemon.waitForLog("types reloaded"), daemon.log)
        shown = try pbOK("types", "com.example.note").stdoutText
        XCTAssertTrue(shown.contains("  extensions: note\n"), shown)
    }

    func testNotesPastesTextThatPBCopiedAsANote() throws {
        let text = "Shopping\nbread\nbutter\n"
        try pbOK("copy", stdin: Data(text.utf8))
        let pasted = try notesOK("paste")
        XCTAssertEqual(pasted["title"], "Shopping")
        XCTAssertEqual(pasted["body"], "bread\\nbutter")
        XCTAssertEqual(pasted["type"], "public.utf8-plain-text", "no note on the pasteboard: the paste fell back to text")
        assertProgress(pasted["progress"], endsAt: text.utf8.count)

        try writePNG("photo.png", width: 4, height: 4)
        try pbOK("copy", sandbox.path("photo.png"))
        let refused = try notes("paste")
        XCTAssertEqual(refused.status, 1, "an image is neither a note nor text")
        XCTAssertTrue(refused.stderr.hasPrefix("notes: error: "), refused.stderr)
    }

    func testANoteDraggedFromOneNotesProcessDropsIntoAnother() throws {
        let source = try start(ClientPackage.notes(), ["drag", "Trip", "pack bags\nbook train"])
        _ = try sessionID(of: source)
        let dropped = try notesOK("drop")
        XCTAssertEqual(dropped["title"], "Trip")
        XCTAssertEqual(dropped["body"], "pack bags\\nbook train")
        XCTAssertEqual(dropped["type"], "com.example.note")
        assertProgress(dropped["progress"], endsAt: #"{"body":"pack bags\nbook train","title":"Trip"}"#.utf8.count)

        let end = try outcome(of: source)
        XCTAssertEqual(end.status, 0, "the drag source ends with a finished drop")
        let heard = fields(end.stdout)
        XCTAssertEqual(heard["outcome"], "copy")
        let events = heard["events"] ?? ""
        XCTAssertTrue(events.hasPrefix("dropped by notes (pid ") && events.hasSuffix("; notes finished the drop (copy)"),
                      "the observe closure recorded the session's events in the view model: \(events)")
    }

    func testNotesRefusesADraggedImageAndLeavesTheSessionInFlight() throws {
        try writePNG("photo.png", width: 4, height: 4)
        let (_, id) = try startPBDrag(sandbox.path("photo.png"))
        let refused = try notes("drop")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("the drag offers no note and no text (public.png)"), refused.stderr)
        let sessions = try XCTUnwrap(JSONSerialization.jsonObject(with: pbOK("sessions", "--json").stdout) as? [[String: Any]])
        XCTAssertEqual(sessions.compactMap { $0["id"] as? Int }, [id], "a refused drop leaves the drag for another destination")
    }
}

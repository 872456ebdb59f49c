import Foundation
import XCTest

/// The gallery app against other galleries, pb and the trash: the drag-and-drop matrix.
final class GalleryDragDropTests: DragDropTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    func testAddAcceptsOnlyPNGAndRecordsTheAspectRatio() throws {
        try writePNG("wide.png", width: 300, height: 100)
        try galleryOK("add", sandbox.path("wide.png"), "--title", "Wide")
        try Data("GIF89a not a png".utf8).write(to: URL(fileURLWithPath: sandbox.path("cat.gif")))
        let refused = try gallery("add", sandbox.path("cat.gif"), "--title", "Cat")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("cat.gif is not a PNG image"), refused.stderr)
        let images = try images()
        XCTAssertEqual(images.map { $0["title"] as? String }, ["Wide"])
        XCTAssertEqual(images[0]["aspectRatio"] as? Double, 3)
        XCTAssertEqual(images[0]["source"] as? String, sandbox.path("wide.png"))
    }

    func testAddTitlesByTheFileNameAndTheOriginColumnShowsPathsWhereverAnImageCameFrom() throws {
        try writePNG("Harbour at dusk.png", width: 30, height: 10)
        let added = try galleryOK("add", sandbox.path("Harbour at dusk.png"))
        XCTAssertEqual(added.stderr, "gallery: added 'Harbour at dusk' (aspect ratio 3.00)\n")
        let (source, _) = try startGalleryDrag("0")
        try galleryOK("drop", file: "b.json")
        XCTAssertEqual(try outcome(of: source).stdout, "copy")

        let original = try XCTUnwrap(try images().first)
        let storedPath = (sandbox.path("a.json") as NSString).deletingLastPathComponent + "/" + (original["file"] as? String ?? "?")
        XCTAssertEqual(try galleryOK("list").stdoutText, "0\tHarbour at dusk\t3.00\t\(sandbox.path("Harbour at dusk.png"))\n")
        XCTAssertEqual(try galleryOK("list", file: "b.json").stdoutText, "0\tHarbour at dusk\t3.00\t\(storedPath)\n",
                       "a path, not a file:// URL with the space percent-encoded")
    }

    func testCopyBetweenTwoGalleriesWithProgress() throws {
        let pngs = try addImages(["Sunset", "Harbour"])
        let (source, _) = try startGalleryDrag("0", "1")
        let drop = try galleryOK("drop", "--progress", file: "b.json")
        XCTAssertTrue(drop.stderr.contains("progress "), drop.stderr)
        let end = try outcome(of: source)
        XCTAssertEqual(end.status, 0)
        XCTAssertEqual(end.stdout, "copy")
        let copied = try images("b.json")
        XCTAssertEqual(copied.map { $0["title"] as? String }, ["Sunset", "Harbour"])
        XCTAssertEqual(copied.map { $0["aspectRatio"] as? Double }, [2, 4])
        XCTAssertEqual(try copied.map { try imageBytes($0, in: "b.json") }, pngs)
        XCTAssertEqual(try titles(), ["Sunset", "Harbour"], "a copy leaves the source gallery as it was")
    }

    func testADropThatWaitsGetsTheDragThatBeginsAfterIt() throws {
        let pngs = try addImages(["Lighthouse"])
        // No drag is in flight: without --wait the drop fails, with it the drop waits for one.
        XCTAssertEqual(try gallery("drop", file: "b.json").status, 1)
        let drop = try start("gallery", ["drop", "--wait", "--file", sandbox.path("b.json")])
        XCTAssertNotNil(drop.waitForLine { $0.hasPrefix("gallery: no drag session in flight; waiting for one") }, drop.stderrLines.joined(separator: "\n"))
        let (source, _) = try startGalleryDrag("0")
        XCTAssertEqual(drop.waitForExit(timeout: 20), 0, drop.stderrLines.joined(separator: "\n"))
        XCTAssertEqual(try outcome(of: source).stdout, "copy")
        XCTAssertEqual(try images("b.json").map { $0["title"] as? String }, ["Lighthouse"])
        XCTAssertEqual(try images("b.json").map { try imageBytes($0, in: "b.json") }, pngs)
    }

    func testDropIntoTheSameGalleryReordersAsAMove() throws {
        try addImages(["a", "b", "c"])
        let (source, _) = try startGalleryDrag("2")
        try galleryOK("drop", "--at", "0")
        let end = try outcome(of: source)
        XCTAssertEqual(end.stdout, "move")
        XCTAssertEqual(try titles(), ["c", "a", "b"])
        XCTAssertEqual(files(in: "a.images").count, 3, "a reorder deletes no image")
    }

    func testTrashDeletesTheDraggedImagesFromTheSource() throws {
        try addImages(["keep", "bin"])
        let (source, _) = try startGalleryDrag("1")
        try galleryOK("trash", file: "unused.json")
        let end = try outcome(of: source)
        XCTAssertEqual(end.status, 0)
        XCTAssertEqual(end.stdout, "move")
        XCTAssertEqual(try titles(), ["keep"])
        XCTAssertEqual(files(in: "a.images").count, 1)
    }

    func testGalleryToPBDropGivesTheOriginalPNG() throws {
        let pngs = try addImages(["Sunset"])
        let (source, _) = try startGalleryDrag("0")
        try pbOK("drop", "-t", "public.png", "-o", sandbox.path("out.png"))
        XCTAssertEqual(try outcome(of: source).stdout, "copy")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: sandbox.path("out.png"))), pngs[0])
    }

    func testGalleryDragOffersItsTypeTitleAndFileURL() throws {
        try addImages(["Sunset"])
        let (_, id) = try startGalleryDrag("0")
        let listing = try pbOK("sessions", "--json")
        let sessions = try XCTUnwrap(JSONSerialization.jsonObject(with: listing.stdout) as? [[String: Any]])
        let session = try XCTUnwrap(sessions.first { $0["id"] as? Int == id })
        XCTAssertEqual(session["app"] as? String, "com.example.gallery")
        XCTAssertNil(session["localContext"], "pb is another application: the local context is not shown")
        let item = try XCTUnwrap((session["items"] as? [[String: Any]])?.first)
        let types = (item["representations"] as? [[String: Any]])?.compactMap { $0["type"] as? String }
        XCTAssertEqual(types, ["com.example.gallery.image", "public.png", "public.utf8-plain-text", "public.file-url"])
        XCTAssertEqual(item["suggestedName"] as? String, "Sunset.png")
        let text = try pbOK("drop", "-t", "text")
        XCTAssertEqual(text.stdoutText, "Sunset")
    }

    func testPBDragOfAPNGIntoAGallery() throws {
        let png = try writePNG("photo.png", width: 40, height: 30)
        let (source, _) = try startPBDrag(sandbox.path("photo.png"))
        try galleryOK("drop")
        XCTAssertEqual(try outcome(of: source).stdout, "copy")
        let images = try images()
        XCTAssertEqual(images.map { $0["title"] as? String }, ["photo"], "the title comes from the suggested name")
        XCTAssertEqual(try imageBytes(images[0]), png)
        XCTAssertEqual(images[0]["aspectRatio"] as? Double, 4.0 / 3.0)
    }

    func testTitleComesFromPlainTextWhenOffered() throws {
        try writePNG("p.png", width: 10, height: 10)
        let (source, _) = try startPBDrag("--rep", "public.png=@" + sandbox.path("p.png"), "--rep", "public.utf8-plain-text=Lighthouse at dusk")
        try galleryOK("drop")
        XCTAssertEqual(try outcome(of: source).stdout, "copy")
        XCTAssertEqual(try titles(), ["Lighthouse at dusk"])
    }

    func testRefusalsLeaveTheDragInFlight() throws {
        try Data("just words\n".utf8).write(to: URL(fileURLWithPath: sandbox.path("words.txt")))
        let (source, id) = try startPBDrag("-v", sandbox.path("words.txt"))
        let intoGallery = try gallery("drop")
        XCTAssertEqual(intoGallery.status, 1)
        XCTAssertTrue(intoGallery.stderr.contains("offers no PNG image"), intoGallery.stderr)
        XCTAssertTrue(intoGallery.stderr.contains("forbidden"), intoGallery.stderr)
        let intoTrash = try gallery("trash")
        XCTAssertEqual(intoTrash.status, 1)
        XCTAssertTrue(intoTrash.stderr.contains("accepts only drags from a gallery"), intoTrash.stderr)
        XCTAssertEqual(try images().count, 0, "nothing was added, not even a placeholder")
        XCTAssertNotNil(source.waitForLine { $0.contains("refused the drop") }, "\(source.stderrLines)")
        XCTAssertTrue(source.process.isRunning, "a refused drop does not end the drag")
        let text = try pbOK("drop", "--session", String(id))
        XCTAssertEqual(text.stdoutText, "just words\n")
        XCTAssertEqual(try outcome(of: source).stdout, "copy")
    }

    func testTrashRefusesAGalleryDragThatAllowsOnlyCopy() throws {
        try addImages(["a"])
        let (source, _) = try startGalleryDrag("0", "--allow", "copy")
        let refused = try gallery("trash")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("allows only copy"), refused.stderr)
        source.signal(SIGINT)
        let end = try outcome(of: source)
        XCTAssertEqual(end.status, 1)
        XCTAssertEqual(end.stdout, "cancelled", "\(source.stderrLines)")
        XCTAssertEqual(try titles(), ["a"])
    }

    func testSeveralImagesKeepTheirOrder() throws {
        let pngs = try addImages(["a", "b", "c"])
        let (source, _) = try startGalleryDrag("2", "0", "1")
        try addImages(["x", "y"], to: "b.json")
        try galleryOK("drop", "--at", "1", file: "b.json")
        XCTAssertEqual(try outcome(of: source).stdout, "copy")
        let copied = try images("b.json")
        XCTAssertEqual(copied.map { $0["title"] as? String }, ["x", "c", "a", "b", "y"])
        XCTAssertEqual(try imageBytes(copied[1], in: "b.json"), pngs[2])
    }

    func testMultiItemDropIntoADirectoryUsesSuggestedNames() throws {
        let pngs = try addImages(["one", "two"])
        let (source, _) = try startGalleryDrag("0", "1")
        try FileManager.default.createDirectory(atPath: sandbox.path("out"), withIntermediateDirectories: true)
        try Data("old".utf8).write(to: URL(fileURLWithPath: sandbox.path("out/one.png")))
        try pbOK("drop", "-t", "public.png", "-o", sandbox.path("out"))
        XCTAssertEqual(try outcome(of: source).stdout, "copy")
        XCTAssertEqual(files(in: "out"), ["one-2.png", "one.png", "two.png"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: sandbox.path("out/one.png"))), Data("old".utf8), "never overwritten")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: sandbox.path("out/one-2.png"))), pngs[0])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: sandbox.path("out/two.png"))), pngs[1])
    }

    func testRestrictedSessionIsOnlyForGalleries() throws {
        try addImages(["secret"])
        let (source, id) = try startGalleryDrag("0", "--restricted")
        XCTAssertEqual(try pbOK("sessions").stdoutText, "(no drag sessions in flight)\n")
        let byID = try pb("drop", "--session", String(id))
        XCTAssertEqual(byID.status, 1)
        XCTAssertTrue(byID.stderr.contains("restricted to the application 'com.example.gallery'"), byID.stderr)
        let current = try pb("drop")
        XCTAssertEqual(current.status, 1, "the current session for pb skips restricted ones")
        try galleryOK("drop", file: "b.json")
        XCTAssertEqual(try outcome(of: source).stdout, "copy")
        XCTAssertEqual(try titles("b.json"), ["secret"])
    }

    func testSourceKilledMidDropRemovesThePlaceholderAndWritesNothing() throws {
        let big = sandbox.path("big.png")
        try PNGFixture.writeLarge(to: big, size: 1 << 30)
        try addImages(["existing"])
        var environment = sandbox.environment()
        let temporary = sandbox.path("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        environment["TMPDIR"] = temporary
        let (source, _) = try startPBDrag(big)
        let drop = try start("gallery", ["drop", "--progress", "--file", sandbox.path("a.json")], environment: environment)
        XCTAssertNotNil(drop.waitForLine { $0.hasPrefix("progress ") }, "\(drop.stderrLines)")
        XCTAssertEqual(try images().map { $0["placeholder"] as? Bool }, [nil, true], "a placeholder stands in while loading")
        source.signal(SIGKILL)
        let status = try XCTUnwrap(drop.waitForExit())
        XCTAssertEqual(status, 1)
        XCTAssertTrue(drop.stderrLines.contains { $0.contains("gallery:") && ($0.contains("went away") || $0.contains("disconnected")) }, "\(drop.stderrLines)")
        XCTAssertEqual(try titles(), ["existing"], "the placeholder is gone")
        XCTAssertEqual(files(in: "a.images").count, 1, "no half-written image")
        XCTAssertEqual(files(in: "tmp"), [], "no temporary file left")
        try pbOK("sessions")
    }

    func testConcurrentEditDuringASlowDropCommitsWhereThePlaceholderStands() throws {
        try addImages(["a", "b"])
        let slow = sandbox.path("slow.png")
        try PNGFixture.writeLarge(to: slow, size: 768 << 20, width: 64, height: 32)
        let (source, _) = try startPBDrag(slow)
        let drop = try start("gallery", ["drop", "--at", "1", "--progress", "--file", sandbox.path("a.json")])
        XCTAssertNotNil(drop.waitForLine { $0.hasPrefix("progress ") }, "\(drop.stderrLines)")
        // While the image loads, another process edits the gallery: an image goes in before the
        // placeholder and the first image moves to the end.
        try writePNG("new.png", width: 10, height: 10)
        try galleryOK("add", sandbox.path("new.png"), "--title", "new", "--at", "0")
        try galleryOK("move", "1", "3")
        XCTAssertEqual(try titles(), ["new", "slow", "b", "a"], "the placeholder (titled from the suggested name) moved to index 1")
        XCTAssertEqual(try XCTUnwrap(drop.waitForExit(timeout: 120)), 0, "\(drop.stderrLines)")
        XCTAssertEqual(try outcome(of: source).stdout, "copy")
        let images = try images()
        XCTAssertEqual(images.map { $0["title"] as? String }, ["new", "slow", "b", "a"])
        XCTAssertNil(images[1]["placeholder"])
        XCTAssertEqual(images[1]["aspectRatio"] as? Double, 2)
        XCTAssertEqual(try imageBytes(images[1]).count, 768 << 20)
    }
}

import Foundation
import PasteboardDesktop
import TestSupport
import XCTest

/// Drag sessions dragged onto the X11 desktop: a real daemon whose bridge serves an Xvfb, a
/// real `gallery drag --desktop` or `pb drag --desktop`, xdotool pressing, moving and releasing
/// the real pointer on the handle, and a real GTK 3 application (python3-gi) as the target,
/// which records what it received.
final class X11DesktopDragTests: DragDropTestCase {
    private var server: XvfbServer?
    private let cookie = "00112233445566778899aabbccddeeff"

    override class var startsDaemonInSetUp: Bool { false }

    private static let xdotool = "/usr/bin/xdotool"
    private static var gtkIsAvailable: Bool { DebianPython.runs("import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard FileManager.default.isExecutableFile(atPath: Self.xdotool) else { throw XCTSkip("xdotool is not installed (apt-get install xdotool)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xauth") else { throw XCTSkip("xauth is not installed (apt-get install xauth)") }
        guard Self.gtkIsAvailable else { throw XCTSkip("python3-gi with GTK 3 is not installed (apt-get install python3-gi gir1.2-gtk-3.0)") }
        let server = try XvfbServer(sandbox: sandbox, authorityFile: sandbox.path("Xauthority"), cookie: cookie)
        self.server = server
        daemon = try DaemonProcess.started(in: sandbox, display: displayEnvironment)
        XCTAssertTrue(eventually(timeout: 15) { (try? self.pb("bridge").stdoutText.contains("serves \(server.display)")) == true },
                      "no bridge: \(daemon.log)")
        // The handle opens near the pointer: keep it in the top-left corner, away from the target.
        try xdotool("mousemove", "10", "10")
    }

    override func tearDown() {
        stopDaemon()
        server?.stop()
        super.tearDown()
    }

    private var displayEnvironment: [String: String] {
        ["DISPLAY": server?.display ?? "", "XAUTHORITY": sandbox.path("Xauthority")]
    }

    private var desktopEnvironment: [String: String] { sandbox.environment().merging(displayEnvironment) { $1 } }

    @discardableResult
    private func xdotool(_ arguments: String...) throws -> ProcessResult {
        let result = try runTool(Self.xdotool, arguments, environment: desktopEnvironment, in: sandbox)
        XCTAssertEqual(result.status, 0, "xdotool \(arguments.joined(separator: " ")): \(result.stderr)")
        return result
    }

    /// Starts the GTK target answering `mode` (copy, move, refuse) and accepting `types`;
    /// returns it once its window is up, with the file its record of the drop is written to.
    private func startTarget(_ mode: String, accepting types: [String], watching watched: String? = nil) throws -> (ToolProcess, String) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/gtk_drop_target.py").path
        let record = sandbox.path("received-\(UUID().uuidString.prefix(6)).json")
        var environment = desktopEnvironment
        if let watched { environment["WATCHED_PATH"] = watched }
        let target = try start(DebianPython.path, [script, record, mode] + types, environment: environment)
        XCTAssertTrue(eventually(timeout: 20) { target.stdoutText.hasPrefix("ready") }, "the GTK target did not start: \(target.stderrLines)")
        return (target, record)
    }

    /// The handle window of drag session `session`, once the bridge shows it.
    private func handleWindow(of session: Int) throws -> String {
        var found: String?
        XCTAssertTrue(eventually(timeout: 15) {
            let search = try? runTool(Self.xdotool, ["search", "--name", "^Pasteboard: drag session \(session)$"], environment: self.desktopEnvironment, in: self.sandbox)
            found = search?.stdoutText.split(separator: "\n").first.map(String.init)
            return found != nil
        }, "no drag handle for session \(session); daemon log:\n\(daemon.log)")
        return try XCTUnwrap(found)
    }

    private func handleIsShown(_ session: Int) -> Bool {
        let search = try? runTool(Self.xdotool, ["search", "--name", "^Pasteboard: drag session \(session)$"], environment: desktopEnvironment, in: sandbox)
        return search?.status == 0 && search?.stdoutText.isEmpty == false
    }

    /// Presses on the handle, moves in steps to the middle of the GTK target's window (at
    /// 320, 40, 240 pixels square), waits there for its answer, and releases unless `release`
    /// is false.
    private func dragFromHandle(_ handle: String, release: Bool = true) throws {
        try xdotool("mousemove", "--window", handle, "20", "20")
        try xdotool("mousedown", "1")
        for (x, y) in [(120, 60), (300, 120), (420, 150), (440, 160)] {
            usleep(150_000)
            try xdotool("mousemove", "\(x)", "\(y)")
        }
        usleep(400_000)
        if release { try xdotool("mouseup", "1") }
    }

    private func received(_ record: String, line: UInt = #line) throws -> [String: Any] {
        XCTAssertTrue(eventually(timeout: 20) { FileManager.default.fileExists(atPath: record) }, "the GTK target received nothing; daemon log:\n\(daemon.log)", line: line)
        let data = try Data(contentsOf: URL(fileURLWithPath: record))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any], line: line)
    }

    private func sha256(_ data: Data) throws -> String {
        let path = sandbox.path("hashed-\(UUID().uuidString.prefix(6))")
        try data.write(to: URL(fileURLWithPath: path))
        let result = try runTool("/usr/bin/sha256sum", [path], environment: sandbox.environment(), in: sandbox)
        return String(result.stdoutText.prefix(64))
    }

    func testAGalleryImageDraggedIntoAGtkApplicationArrivesByteIdenticalAsACopy() throws {
        let pngs = try addImages(["Lighthouse"])
        let (target, record) = try startTarget("copy", accepting: ["image/png", "text/uri-list"])
        let (source, session) = try startGalleryDrag("0", "--desktop")
        try dragFromHandle(try handleWindow(of: session))

        let got = try received(record)
        XCTAssertEqual(got["target"] as? String, "image/png")
        XCTAssertEqual(got["bytes"] as? Int, pngs[0].count)
        XCTAssertEqual(got["sha256"] as? String, try sha256(pngs[0]))
        XCTAssertEqual(got["action"] as? String, "copy")
        let offered = try XCTUnwrap(got["offered"] as? [String])
        XCTAssertTrue(offered.contains("image/png") && offered.contains("text/uri-list") && offered.contains("text/plain;charset=utf-8"), "\(offered)")
        XCTAssertFalse(offered.contains("x-special/gnome-copied-files"), "a clipboard type offered to a drag: \(offered)")

        let end = try outcome(of: source)
        XCTAssertEqual(end.status, 0, "\(source.stderrLines)")
        XCTAssertEqual(end.stdout, "copy")
        XCTAssertEqual(try titles(), ["Lighthouse"], "a copy keeps the original")
        XCTAssertTrue(eventually(timeout: 10) { !self.handleIsShown(session) }, "the handle stayed after the session ended")
        XCTAssertNotNil(target.waitForExit(timeout: 10))
    }

    func testAMoveIntoAGtkApplicationRemovesTheOriginalOnlyAfterTheDropFinished() throws {
        try addImages(["Harbour"])
        let original = try XCTUnwrap(try images().first)
        let originalPath = (sandbox.path("a.json") as NSString).deletingLastPathComponent + "/" + (original["file"] as? String ?? "?")
        let (_, record) = try startTarget("move", accepting: ["image/png"], watching: originalPath)
        let (source, session) = try startGalleryDrag("0", "--desktop", "--allow", "copy,move")
        try dragFromHandle(try handleWindow(of: session))

        let got = try received(record)
        XCTAssertEqual(got["action"] as? String, "move")
        XCTAssertEqual(got["watchedExisted"] as? Bool, true, "the original was gone before the target had the data")
        let end = try outcome(of: source)
        XCTAssertEqual(end.status, 0, "\(source.stderrLines)")
        XCTAssertEqual(end.stdout, "move")
        XCTAssertEqual(try titles(), [], "a finished move removes the image from the gallery")
        XCTAssertFalse(FileManager.default.fileExists(atPath: originalPath))
    }

    func testAMoveToATargetThatTakesOnlyCopiesKeepsTheOriginal() throws {
        try addImages(["Quay"])
        let (_, record) = try startTarget("copy", accepting: ["image/png"])
        let (source, session) = try startGalleryDrag("0", "--desktop", "--allow", "copy,move")
        try dragFromHandle(try handleWindow(of: session))

        XCTAssertEqual(try received(record)["action"] as? String, "copy")
        let end = try outcome(of: source)
        XCTAssertEqual(end.stdout, "copy")
        XCTAssertEqual(try titles(), ["Quay"])
    }

    func testARefusingTargetIsForbiddenTheHandleStaysAndEscCancels() throws {
        try addImages(["Pier"])
        let (target, record) = try startTarget("refuse", accepting: ["image/png"])
        let (source, session) = try startGalleryDrag("0", "--desktop", "--verbose")
        let handle = try handleWindow(of: session)
        try dragFromHandle(handle)

        XCTAssertNotNil(source.waitForLine { $0.contains("refused the drop") }, "no refusal reported: \(source.stderrLines); daemon log:\n\(daemon.log)")
        XCTAssertTrue(handleIsShown(session), "a refused drop leaves the session, and its handle, for another try")
        XCTAssertFalse(FileManager.default.fileExists(atPath: record))

        // Again, and Esc before the release: the session ends cancelled.
        try dragFromHandle(handle, release: false)
        try xdotool("key", "Escape")
        try xdotool("mouseup", "1")
        let end = try outcome(of: source)
        XCTAssertEqual(end.status, 1)
        XCTAssertEqual(end.stdout, "cancelled")
        XCTAssertTrue(eventually(timeout: 10) { !self.handleIsShown(session) }, "the handle stayed after Esc")
        XCTAssertEqual(try titles(), ["Pier"])
        target.stop()
    }

    func testSeveralImagesDropAsAURIListOfEveryFile() throws {
        try addImages(["One", "Two"])
        let paths = try images().map { (sandbox.path("a.json") as NSString).deletingLastPathComponent + "/" + ($0["file"] as? String ?? "?") }
        let (_, record) = try startTarget("copy", accepting: ["text/uri-list"])
        let (source, session) = try startGalleryDrag("0", "1", "--desktop")
        try dragFromHandle(try handleWindow(of: session))

        let got = try received(record)
        XCTAssertEqual(got["target"] as? String, "text/uri-list")
        let lines = try XCTUnwrap(got["text"] as? String).components(separatedBy: "\r\n")
        XCTAssertEqual(lines.count, 3, "two URIs, each ending with CRLF: \(lines)")
        XCTAssertEqual(lines.last, "")
        for (line, path) in zip(lines, paths) {
            XCTAssertTrue(line.hasPrefix("file://") && line.removingPercentEncoding?.hasSuffix(path) == true, "\(line) is not \(path)")
        }
        XCTAssertEqual(try outcome(of: source).stdout, "copy")
    }

    func testPbDragOfFilesGivesAFileManagerTheirURLs() throws {
        try writePNG("a b.png", width: 4, height: 2)
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: sandbox.path("notes.txt")))
        let (_, record) = try startTarget("copy", accepting: ["text/uri-list"])
        let (source, session) = try startPBDrag("--desktop", sandbox.path("a b.png"), sandbox.path("notes.txt"))
        try dragFromHandle(try handleWindow(of: session))

        let got = try received(record)
        XCTAssertEqual(got["target"] as? String, "text/uri-list")
        XCTAssertEqual(got["text"] as? String, "file://\(sandbox.path("a%20b.png"))\r\nfile://\(sandbox.path("notes.txt"))\r\n")
        XCTAssertEqual(try outcome(of: source).stdout, "copy")
    }

    // MARK: - From GTK applications into drop zones

    /// Starts the GTK source offering `file`; returns it once its window is up, with the file
    /// its record of the drag's end is written to.
    private func startSource(_ file: String) throws -> (ToolProcess, String) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/gtk_drag_source.py").path
        let record = sandbox.path("dragged-\(UUID().uuidString.prefix(6)).json")
        let source = try start(DebianPython.path, [script, record, file], environment: desktopEnvironment)
        XCTAssertTrue(eventually(timeout: 20) { source.stdoutText.hasPrefix("ready") }, "the GTK source did not start: \(source.stderrLines)")
        return (source, record)
    }

    /// The drop zone window of a waiting destination, once the bridge shows it, and its middle.
    private func dropZone() throws -> (x: Int, y: Int) {
        let zone = try dropZoneWindow()
        return (zone.x, zone.y)
    }

    private func dropZoneWindow() throws -> (id: String, x: Int, y: Int) {
        var found: String?
        XCTAssertTrue(eventually(timeout: 15) {
            let search = try? runTool(Self.xdotool, ["search", "--onlyvisible", "--name", "^Pasteboard: drop zone "], environment: self.desktopEnvironment, in: self.sandbox)
            found = search?.stdoutText.split(separator: "\n").first.map(String.init)
            return found != nil
        }, "no drop zone; daemon log:\n\(daemon.log)")
        let geometry = try xdotool("getwindowgeometry", "--shell", try XCTUnwrap(found)).stdoutText
        var values: [String: Int] = [:]
        for line in geometry.split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
        }
        let (x, y, width, height) = (values["X"] ?? 0, values["Y"] ?? 0, values["WIDTH"] ?? 0, values["HEIGHT"] ?? 0)
        return (try XCTUnwrap(found), x + width / 2, y + height / 2)
    }

    /// Presses in the GTK source's window (at 320, 40, 240 pixels square), drags in steps to
    /// `point` and releases there; with `move`, Shift is held, GTK's way of asking for a move.
    private func dragFromSource(to point: (x: Int, y: Int), move: Bool = false) throws {
        try xdotool("mousemove", "440", "160")
        if move { try xdotool("keydown", "shift") }
        try xdotool("mousedown", "1")
        let steps = [(430, 150), (400, 140), (300, 110)] + [(point.x + 20, point.y + 10), (point.x + 2, point.y + 1), (point.x, point.y)]
        for (x, y) in steps {
            usleep(150_000)
            try xdotool("mousemove", "\(x)", "\(y)")
        }
        usleep(400_000)
        try xdotool("mouseup", "1")
        if move { try xdotool("keyup", "shift") }
    }

    private func dragRecord(_ record: String, of source: ToolProcess, line: UInt = #line) throws -> [String: Any] {
        XCTAssertTrue(eventually(timeout: 20) { FileManager.default.fileExists(atPath: record) },
                      "the GTK source's drag never ended: \(source.stderrLines); daemon log:\n\(daemon.log)", line: line)
        let data = try Data(contentsOf: URL(fileURLWithPath: record))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any], line: line)
    }

    func testAPNGFileDraggedFromAGtkApplicationLandsInTheGalleryByteIdentical() throws {
        let png = try writePNG("Lagoon.png", width: 24, height: 12, seed: 3)
        let (source, record) = try startSource(sandbox.path("Lagoon.png"))
        let drop = try start("gallery", ["drop", "--desktop", "--file", sandbox.path("a.json")])
        XCTAssertNotNil(drop.waitForLine { $0.contains("waiting for a drop from the desktop") }, "\(drop.stderrLines)")
        try dragFromSource(to: try dropZone())

        XCTAssertEqual(drop.waitForExit(), 0, "\(drop.stderrLines); daemon log:\n\(daemon.log)")
        let image = try XCTUnwrap(try images().first)
        XCTAssertEqual(image["title"] as? String, "Lagoon")
        XCTAssertEqual(try imageBytes(image), png, "the PNG lands byte-identical")
        let ended = try dragRecord(record, of: source)
        XCTAssertEqual(ended["failed"] as? Bool, false)
        XCTAssertEqual(ended["moved"] as? Bool, false, "gallery drop takes a copy")
        XCTAssertTrue(FileManager.default.fileExists(atPath: sandbox.path("Lagoon.png")))
        XCTAssertTrue(eventually(timeout: 10) {
            (try? runTool(Self.xdotool, ["search", "--onlyvisible", "--name", "^Pasteboard: drop zone "], environment: self.desktopEnvironment, in: self.sandbox).status) == 1
        }, "the drop zone stayed after its destination had its drop")
    }

    func testAMoveFromAGtkApplicationIntoPbDropDeletesTheSourcesFileOnlyAfterItLanded() throws {
        let png = try writePNG("Reef.png", width: 8, height: 8, seed: 5)
        let directory = sandbox.path("received")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let (source, record) = try startSource(sandbox.path("Reef.png"))
        let drop = try start("pb", ["drop", "--desktop", "--operation", "move", "-o", directory])
        XCTAssertNotNil(drop.waitForLine { $0.contains("waiting for a drop from the desktop") }, "\(drop.stderrLines)")
        try dragFromSource(to: try dropZone(), move: true)

        XCTAssertEqual(drop.waitForExit(), 0, "\(drop.stderrLines); daemon log:\n\(daemon.log)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: directory + "/Reef.png")), png)
        let ended = try dragRecord(record, of: source)
        XCTAssertEqual(ended["moved"] as? Bool, true, "a move performed is a move answered: \(ended)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.path("Reef.png")), "the source deleted its original after the move")
    }

    func testADropTheGalleryCannotTakeFailsForTheApplicationAndAddsNothing() throws {
        try Data("not an image\n".utf8).write(to: URL(fileURLWithPath: sandbox.path("notes.txt")))
        let (source, record) = try startSource(sandbox.path("notes.txt"))
        let drop = try start("gallery", ["drop", "--desktop", "--file", sandbox.path("a.json")])
        XCTAssertNotNil(drop.waitForLine { $0.contains("waiting for a drop from the desktop") }, "\(drop.stderrLines)")
        try dragFromSource(to: try dropZone())

        XCTAssertEqual(drop.waitForExit(), 1)
        XCTAssertNotNil(drop.stderrLines.first { $0.contains("offers no PNG image") }, "\(drop.stderrLines)")
        XCTAssertEqual(try dragRecord(record, of: source)["failed"] as? Bool, true, "the application hears that the drop failed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: sandbox.path("notes.txt")))
    }

    /// Sources that drop into a zone and then serve nothing. One never owned XdndSelection:
    /// it hears a failed XdndFinished at once, and the destination goes on waiting for a real
    /// drop. One owns it and never answers: the destination's load fails with a clear error
    /// within the bridge's bounded wait, and the source hears a failed Finished too. The bridge
    /// lives on.
    func testASourceThatDropsAndThenServesNothingFailsTheDropWithinTheBoundedWait() throws {
        guard DebianPython.runs("import Xlib") else { throw XCTSkip("python3-xlib is not installed") }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/hostile_x11_peer.py").path
        let drop = try start("pb", ["drop", "--desktop"])
        XCTAssertNotNil(drop.waitForLine { $0.contains("waiting for a drop from the desktop") }, "\(drop.stderrLines)")
        let zone = try dropZoneWindow()
        let vanishing = try start(DebianPython.path, [script, server?.display ?? "", "xdnd-drop-vanish", zone.id], environment: desktopEnvironment)
        XCTAssertNotNil(vanishing.waitForLine { $0 == "finished 0" }, "the source was not told the drop failed: \(vanishing.stderrLines)")
        XCTAssertNil(drop.waitForExit(timeout: 1), "a drop with nothing to read is no drop: pb goes on waiting")
        XCTAssertTrue(zoneIsShown())
        // A type that names no atom: refused (BadAtom for its name), and the zone goes on.
        let bogus = try start(DebianPython.path, [script, server?.display ?? "", "xdnd-bad-atoms", zone.id], environment: desktopEnvironment)
        XCTAssertNotNil(bogus.waitForLine { $0 == "finished 0" }, "the source was not told the drop failed: \(bogus.stderrLines)")
        XCTAssertNil(drop.waitForExit(timeout: 1), "pb goes on waiting")
        XCTAssertTrue(zoneIsShown(), "the zone went with a bad atom")

        let stalling = try start(DebianPython.path, [script, server?.display ?? "", "xdnd-drop-stall", zone.id], environment: desktopEnvironment)
        XCTAssertEqual(drop.waitForExit(timeout: 30), 1, "\(drop.stderrLines); daemon log:\n\(daemon.log)")
        XCTAssertNotNil(drop.stderrLines.first { $0.contains("XdndSelection") }, "the error names what failed: \(drop.stderrLines)")
        XCTAssertNotNil(stalling.waitForLine { $0 == "finished 0" }, "the source was not told the drop failed: \(stalling.stderrLines)")
        XCTAssertTrue(eventually(timeout: 10) { !self.zoneIsShown() }, "the zone stayed")
        XCTAssertTrue(try pb("bridge").stdoutText.contains("serves"), "the bridge went down")
    }

    private func zoneIsShown() -> Bool {
        let search = try? runTool(Self.xdotool, ["search", "--onlyvisible", "--name", "^Pasteboard: drop zone "], environment: desktopEnvironment, in: sandbox)
        return search?.status == 0
    }

    func testDropFromTheDesktopWithoutABridgeFailsAtOnce() throws {
        stopDaemon()
        daemon = try DaemonProcess.started(in: sandbox)  // no display: no bridge
        let drop = try pb("drop", "--desktop")
        XCTAssertEqual(drop.status, 1)
        XCTAssertTrue(drop.stderr.contains("no drop zone can be shown"), drop.stderr)
        let session = try gallery("drop", "--desktop", "--session", "3")
        XCTAssertNotEqual(session.status, 0)
        XCTAssertTrue(session.stderr.contains("--desktop"), session.stderr)
    }

    /// The README's picture of the handle, which this test makes.
    static let readmePicture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/drag-handle.png")

    func testAScreenshotOfTheHandleShowsItsItemsAndIsTheReadmesPicture() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/import") else { throw XCTSkip("ImageMagick is not installed (apt-get install imagemagick)") }
        try addImages(["Lighthouse", "Harbour at dusk"])
        let (_, session) = try startGalleryDrag("0", "1", "--desktop", "--allow", "copy,move")
        let handle = try handleWindow(of: session)
        let shot = sandbox.path("handle.png")
        let taken = try runTool("/usr/bin/import", ["-window", handle, "png:" + shot], environment: desktopEnvironment, in: sandbox)
        XCTAssertEqual(taken.status, 0, taken.stderr)
        let png = try Data(contentsOf: URL(fileURLWithPath: shot))
        let picture = try XCTUnwrap(PNGPreview.decode(Array(png)), "import wrote no PNG this decodes")

        // The size of the handle drawn for these two items, and not blank: its background,
        // frame and text colours are all there, the text in more than a few pixels.
        let drawing = DragHandleDrawing(
            items: [DragHandleDrawing.Item(title: "Lighthouse.png"), DragHandleDrawing.Item(title: "Harbour at dusk.png")],
            caption: DragHandleDrawing.caption(count: 2, allowsMove: true))
        XCTAssertEqual(picture.width, drawing.size.width)
        XCTAssertEqual(picture.height, drawing.size.height)
        var counts: [UInt32: Int] = [:]
        for index in stride(from: 0, to: picture.bytes.count, by: 4) {
            let rgb = UInt32(picture.bytes[index]) << 16 | UInt32(picture.bytes[index + 1]) << 8 | UInt32(picture.bytes[index + 2])
            counts[rgb, default: 0] += 1
        }
        for (name, color) in [("background", DragHandleDrawing.background), ("frame", DragHandleDrawing.frame), ("text", DragHandleDrawing.text)] {
            XCTAssertGreaterThan(counts[color & 0xff_ffff] ?? 0, name == "text" ? 100 : 10, "too few \(name) pixels: the handle is blank or not ours")
        }

        if ProcessInfo.processInfo.environment["PASTEBOARD_WRITE_SCREENSHOT"] == "1" {
            try png.write(to: Self.readmePicture)
        }
        let readme = try XCTUnwrap(PNGPreview.decode(Array(try Data(contentsOf: Self.readmePicture))),
                                   "\(Self.readmePicture.path) is missing: write it with PASTEBOARD_WRITE_SCREENSHOT=1")
        XCTAssertEqual(readme, picture, "the README's picture is not the handle as it is drawn now: write it again with PASTEBOARD_WRITE_SCREENSHOT=1")
    }

    func testWithDesktopDragsEverySessionButARestrictedOneGetsAHandle() throws {
        stopDaemon()
        daemon = try DaemonProcess.started(in: sandbox, arguments: ["--desktop-drags"], display: displayEnvironment)
        XCTAssertTrue(eventually(timeout: 15) { (try? self.pb("bridge").stdoutText.contains("serves")) == true }, "no bridge: \(daemon.log)")
        try writePNG("shown.png", width: 2, height: 2)
        // The restricted one first: once the later one's handle is up, the bridge has seen every
        // session it may see, and the restricted one is not among them.
        let (_, restricted) = try startPBDrag("--restricted", sandbox.path("shown.png"))
        let (_, shown) = try startPBDrag(sandbox.path("shown.png"))
        _ = try handleWindow(of: shown)
        XCTAssertFalse(handleIsShown(restricted), "a restricted session was shown to the desktop")
        let listed = try pbOK("sessions", "--json").stdoutText
        XCTAssertTrue(listed.contains("\"desktop\":true"), listed)
    }

    func testTheHandleGoesWhereTheUserAsks() throws {
        try addImages(["Buoy"])
        let (_, session) = try startGalleryDrag("0", "--desktop-at", "200,150")
        let geometry = try xdotool("getwindowgeometry", try handleWindow(of: session)).stdoutText
        XCTAssertTrue(geometry.contains("Position: 200,150"), geometry)
        // Past the screen's edge, it is moved inside it (Xvfb's screen is 640 × 480).
        let (_, edge) = try startGalleryDrag("0", "--desktop-at", "32767,0")
        let moved = try xdotool("getwindowgeometry", "--shell", try handleWindow(of: edge)).stdoutText
        let x = moved.split(separator: "\n").first { $0.hasPrefix("X=") }.flatMap { Int($0.dropFirst(2)) } ?? -1
        let width = moved.split(separator: "\n").first { $0.hasPrefix("WIDTH=") }.flatMap { Int($0.dropFirst(6)) } ?? -1
        XCTAssertEqual(x + width, 640, moved)
        for bad in ["200", "-1,5", "5,32768", "a,b"] {
            let refused = try gallery("drag", "0", "--desktop-at", bad)
            XCTAssertEqual(refused.status, 2, "\(bad): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("--desktop-at"), refused.stderr)
        }
    }

    func testADesktopSessionCannotBeRestricted() throws {
        let refused = try gallery("drag", "0", "--desktop", "--restricted")
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("--desktop") && refused.stderr.contains("--restricted"), refused.stderr)
        try writePNG("a.png", width: 2, height: 2)
        let pbRefused = try pb("drag", "--desktop", "--restricted", sandbox.path("a.png"))
        XCTAssertNotEqual(pbRefused.status, 0)
        XCTAssertTrue(pbRefused.stderr.contains("cannot be --restricted"), pbRefused.stderr)
    }
}

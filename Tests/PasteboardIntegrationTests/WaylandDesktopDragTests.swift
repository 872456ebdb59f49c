import Foundation
import TestSupport
import XCTest

/// Drag sessions dragged onto the Wayland desktop, and drops from it: a real headless sway
/// (run as an unprivileged user), a real daemon whose bridge serves it, real `gallery` and `pb`,
/// GTK 3 applications under `GDK_BACKEND=wayland` as the other side, and a virtual pointer
/// (`zwlr_virtual_pointer_manager_v1`, a client of the test's own: a headless sway has no
/// pointer) pressing, moving and releasing. sway tiles: the first window opened takes the left
/// half of the output, the next the right.
final class WaylandDesktopDragTests: DragDropTestCase {
    private var sway: HeadlessSway?

    override class var startsDaemonInSetUp: Bool { false }

    private static var gtkIsAvailable: Bool { DebianPython.runs("import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard Self.gtkIsAvailable else { throw XCTSkip("python3-gi with GTK 3 is not installed (apt-get install python3-gi gir1.2-gtk-3.0)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/swaymsg") else { throw XCTSkip("swaymsg is not installed (apt-get install sway)") }
        let sway = try HeadlessSway()
        self.sway = sway
        daemon = try DaemonProcess.started(in: sandbox, display: ["WAYLAND_DISPLAY": sway.socketName, "XDG_RUNTIME_DIR": sway.runtimeDirectory])
        XCTAssertTrue(eventually(timeout: 15) { (try? self.pb("bridge").stdoutText.contains("serves \(sway.socketPath)")) == true },
                      "no bridge: \((try? self.pb("bridge").stdoutText) ?? ""); daemon log:\n\(daemon.log)")
    }

    override func tearDown() {
        stopDaemon()
        sway?.stop()
        super.tearDown()
    }

    private static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
    }

    /// A GTK application's environment: this sway, and no X display.
    private var gtkEnvironment: [String: String] {
        var environment = sandbox.environment()
        environment["WAYLAND_DISPLAY"] = sway?.socketPath ?? ""
        environment["XDG_RUNTIME_DIR"] = sway?.runtimeDirectory ?? ""
        environment["GDK_BACKEND"] = "wayland"
        environment["DISPLAY"] = nil
        return environment
    }

    /// The window titled `title` (a regular expression's whole match), once sway shows it.
    private func window(_ title: String, line: UInt = #line) throws -> HeadlessSway.Window {
        var found: HeadlessSway.Window?
        XCTAssertTrue(eventually(timeout: 15) {
            found = try? self.sway?.windows().first { $0.title.range(of: "^\(title)$", options: .regularExpression) != nil && $0.width > 0 }
            return found != nil
        }, "no window \(title): \((try? sway?.windows().map(\.title)) ?? []); daemon log:\n\(daemon.log)", line: line)
        return try XCTUnwrap(found, line: line)
    }

    private func isShown(_ title: String) -> Bool {
        (try? sway?.windows().contains { $0.title.range(of: "^\(title)$", options: .regularExpression) != nil }) == true
    }

    /// Plays `steps` on the virtual pointer.
    private func pointer(_ steps: [String], line: UInt = #line) throws {
        let sway = try XCTUnwrap(sway)
        let size = try sway.outputSize()
        let result = try runTool(DebianPython.path, [Self.fixture("wayland_virtual_pointer.py"), sway.socketPath, "\(size.width)", "\(size.height)"] + steps,
                                 environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(result.status, 0, "the virtual pointer: \(result.stderr)", line: line)
    }

    /// Presses in the middle of window `source`, moves in steps to the middle of window
    /// `destination` (both titles as in `window(_:)`, looked up now: sway re-tiles as windows
    /// come), waits there for the destination's answer, and releases.
    private func drag(from source: String, to destination: String) throws {
        var ends: (HeadlessSway.Window, HeadlessSway.Window)?
        // Both shown, side by side: until sway has tiled the later one, the earlier covers it.
        XCTAssertTrue(eventually(timeout: 15) {
            guard let from = try? self.window(source), let to = try? self.window(destination),
                  from.x + from.width <= to.x || to.x + to.width <= from.x else { return false }
            ends = (from, to)
            return true
        }, "\(source) and \(destination) are not side by side: \((try? sway?.windows()) ?? [])")
        let (from, to) = try XCTUnwrap(ends)
        try drag(from: from.middle, to: to.middle)
    }

    private func drag(from: (x: Int, y: Int), to: (x: Int, y: Int), release: Bool = true) throws {
        var steps = ["move:\(from.x),\(from.y)", "wait:150", "down", "wait:150"]
        for fraction in [0.05, 0.3, 0.7, 1.0] {
            let x = from.x + Int(Double(to.x - from.x) * fraction), y = from.y + Int(Double(to.y - from.y) * fraction)
            steps += ["move:\(x),\(y)", "wait:150"]
        }
        steps += ["move:\(to.x + 5),\(to.y + 5)", "wait:400"]
        if release { steps.append("up") }
        try pointer(steps)
    }

    /// Starts the GTK target answering `mode` (copy, move, refuse) and accepting `types`, and
    /// returns it once sway shows it, with the file its record of the drop is written to.
    private func startTarget(_ mode: String, accepting types: [String], watching watched: String? = nil) throws -> (ToolProcess, String) {
        let record = sandbox.path("received-\(UUID().uuidString.prefix(6)).json")
        var environment = gtkEnvironment
        if let watched { environment["WATCHED_PATH"] = watched }
        let target = try start(DebianPython.path, [Self.fixture("gtk_drop_target.py"), record, mode] + types, environment: environment)
        XCTAssertTrue(eventually(timeout: 20) { target.stdoutText.hasPrefix("ready") }, "the GTK target did not start: \(target.stderrLines)")
        _ = try window("gtk drop target")
        return (target, record)
    }

    private func received(_ record: String, line: UInt = #line) throws -> [String: Any] {
        XCTAssertTrue(eventually(timeout: 20) { FileManager.default.fileExists(atPath: record) }, "the GTK target received nothing; daemon log:\n\(daemon.log)", line: line)
        let data = try Data(contentsOf: URL(fileURLWithPath: record))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any], line: line)
    }

    private func sha256(_ data: Data) throws -> String {
        let path = sandbox.path("hashed-\(UUID().uuidString.prefix(6))")
        try data.write(to: URL(fileURLWithPath: path))
        return String(try runTool("/usr/bin/sha256sum", [path], environment: sandbox.environment(), in: sandbox).stdoutText.prefix(64))
    }

    // MARK: - From our sessions into GTK applications

    func testAGalleryImageDraggedIntoAGtkApplicationArrivesByteIdenticalAsACopy() throws {
        let pngs = try addImages(["Lighthouse"])
        let (target, record) = try startTarget("copy", accepting: ["image/png", "text/uri-list"])
        let (source, session) = try startGalleryDrag("0", "--desktop")
        try drag(from: "Pasteboard: drag session \(session)", to: "gtk drop target")

        let got = try received(record)
        XCTAssertEqual(got["target"] as? String, "image/png")
        XCTAssertEqual(got["bytes"] as? Int, pngs[0].count)
        XCTAssertEqual(got["sha256"] as? String, try sha256(pngs[0]))
        XCTAssertEqual(got["action"] as? String, "copy")
        let offered = try XCTUnwrap(got["offered"] as? [String])
        XCTAssertTrue(offered.contains("image/png") && offered.contains("text/uri-list"), "\(offered)")
        XCTAssertFalse(offered.contains("UTF8_STRING"), "an X11 name offered on Wayland: \(offered)")

        let end = try outcome(of: source)
        XCTAssertEqual(end.status, 0, "\(source.stderrLines)")
        XCTAssertEqual(end.stdout, "copy")
        XCTAssertEqual(try titles(), ["Lighthouse"], "a copy keeps the original")
        XCTAssertTrue(eventually(timeout: 10) { !self.isShown("Pasteboard: drag session \(session)") }, "the handle stayed after the session ended")
        XCTAssertNotNil(target.waitForExit(timeout: 10))
    }

    func testAMoveIntoAGtkApplicationRemovesTheOriginalOnlyAfterTheDropFinished() throws {
        try addImages(["Harbour"])
        let original = try XCTUnwrap(try images().first)
        let originalPath = (sandbox.path("a.json") as NSString).deletingLastPathComponent + "/" + (original["file"] as? String ?? "?")
        let (_, record) = try startTarget("move", accepting: ["image/png"], watching: originalPath)
        let (source, session) = try startGalleryDrag("0", "--desktop", "--allow", "copy,move")
        try drag(from: "Pasteboard: drag session \(session)", to: "gtk drop target")

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
        try drag(from: "Pasteboard: drag session \(session)", to: "gtk drop target")

        XCTAssertEqual(try received(record)["action"] as? String, "copy")
        XCTAssertEqual(try outcome(of: source).stdout, "copy")
        XCTAssertEqual(try titles(), ["Quay"])
    }

    /// A release over a target that refuses leaves the session and its handle for another try
    /// (Wayland tells a source no more than "nobody took it"); closing the handle, as a user
    /// closes any window, calls the drag off.
    func testARefusedDropLeavesTheHandleAndClosingItCancels() throws {
        try addImages(["Pier"])
        let (target, record) = try startTarget("refuse", accepting: ["image/png"])
        let (source, session) = try startGalleryDrag("0", "--desktop")
        try drag(from: "Pasteboard: drag session \(session)", to: "gtk drop target")

        XCTAssertTrue(eventually(timeout: 10) { self.daemon.log.contains("drag session \(session): desktop drag cancelled") }, "daemon log:\n\(daemon.log)")
        XCTAssertTrue(isShown("Pasteboard: drag session \(session)"), "a refused drop leaves the session, and its handle, for another try")
        XCTAssertFalse(FileManager.default.fileExists(atPath: record))
        XCTAssertNil(source.waitForExit(timeout: 0.2), "the session ended with the refusal")

        XCTAssertTrue(try XCTUnwrap(sway).command("[title=\"^Pasteboard: drag session \(session)$\"] kill"))
        let end = try outcome(of: source)
        XCTAssertEqual(end.status, 1)
        XCTAssertEqual(end.stdout, "cancelled")
        XCTAssertTrue(eventually(timeout: 10) { !self.isShown("Pasteboard: drag session \(session)") }, "the handle stayed after it was closed")
        XCTAssertEqual(try titles(), ["Pier"])
        target.stop()
    }

    func testPbDragOfFilesGivesAGtkApplicationTheirURLs() throws {
        let first = sandbox.path("report.txt"), second = sandbox.path("notes.txt")
        try Data("report\n".utf8).write(to: URL(fileURLWithPath: first))
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: second))
        let (_, record) = try startTarget("copy", accepting: ["text/uri-list"])
        let (source, session) = try startPBDrag(first, second, "--desktop")
        try drag(from: "Pasteboard: drag session \(session)", to: "gtk drop target")

        let lines = try XCTUnwrap(try received(record)["text"] as? String).components(separatedBy: "\r\n")
        XCTAssertEqual(lines.count, 3, "two URIs, each ending with CRLF: \(lines)")
        for (line, path) in zip(lines, [first, second]) {
            XCTAssertTrue(line.hasPrefix("file://") && line.removingPercentEncoding?.hasSuffix(path) == true, "\(line) is not \(path)")
        }
        XCTAssertEqual(try outcome(of: source).stdout, "copy")
    }

    // MARK: - From GTK applications into drop zones

    /// Starts the GTK source offering `file`; returns it once sway shows it, with the file its
    /// record of how the drag ended is written to.
    private func startSource(_ file: String) throws -> (ToolProcess, String) {
        let record = sandbox.path("dragged-\(UUID().uuidString.prefix(6)).json")
        let source = try start(DebianPython.path, [Self.fixture("gtk_drag_source.py"), record, file], environment: gtkEnvironment)
        XCTAssertTrue(eventually(timeout: 20) { source.stdoutText.hasPrefix("ready") }, "the GTK source did not start: \(source.stderrLines)")
        _ = try window("gtk drag source")
        return (source, record)
    }

    private func dragRecord(_ record: String, of source: ToolProcess, line: UInt = #line) throws -> [String: Any] {
        XCTAssertTrue(eventually(timeout: 20) { FileManager.default.fileExists(atPath: record) }, "the GTK source never ended its drag: \(source.stderrLines)", line: line)
        let data = try Data(contentsOf: URL(fileURLWithPath: record))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any], line: line)
    }

    func testAPNGFileDraggedFromAGtkApplicationLandsInTheGalleryByteIdentical() throws {
        let png = try writePNG("Lagoon.png", width: 24, height: 12, seed: 3)
        let (source, record) = try startSource(sandbox.path("Lagoon.png"))
        let drop = try start("gallery", ["drop", "--desktop", "--file", sandbox.path("a.json")])
        XCTAssertNotNil(drop.waitForLine { $0.contains("waiting for a drop from the desktop") }, "\(drop.stderrLines)")
        try drag(from: "gtk drag source", to: "Pasteboard: drop zone [0-9]+")

        XCTAssertEqual(drop.waitForExit(), 0, "\(drop.stderrLines); daemon log:\n\(daemon.log)")
        let image = try XCTUnwrap(try images().first)
        XCTAssertEqual(image["title"] as? String, "Lagoon")
        XCTAssertEqual(try imageBytes(image), png, "the PNG lands byte-identical")
        XCTAssertEqual(try dragRecord(record, of: source)["moved"] as? Bool, false, "gallery drop takes a copy")
        XCTAssertTrue(FileManager.default.fileExists(atPath: sandbox.path("Lagoon.png")))
        XCTAssertTrue(eventually(timeout: 10) { !self.isShown("Pasteboard: drop zone [0-9]+") }, "the drop zone stayed after its destination had its drop")
    }

    func testAMoveFromAGtkApplicationIntoPbDropDeletesTheSourcesFileOnlyAfterItLanded() throws {
        let png = try writePNG("Reef.png", width: 8, height: 8, seed: 5)
        let directory = sandbox.path("received")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let (source, record) = try startSource(sandbox.path("Reef.png"))
        let drop = try start("pb", ["drop", "--desktop", "--operation", "move", "-o", directory])
        XCTAssertNotNil(drop.waitForLine { $0.contains("waiting for a drop from the desktop") }, "\(drop.stderrLines)")
        try drag(from: "gtk drag source", to: "Pasteboard: drop zone [0-9]+")

        XCTAssertEqual(drop.waitForExit(), 0, "\(drop.stderrLines); daemon log:\n\(daemon.log)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: directory + "/Reef.png")), png)
        // GTK deletes its original on the bridge's DELETE request, sent once the destination
        // has the file, and ends its drag after.
        XCTAssertTrue(eventually(timeout: 10) { !FileManager.default.fileExists(atPath: self.sandbox.path("Reef.png")) },
                      "the source kept its original after the move: \(source.stderrLines); daemon log:\n\(daemon.log)")
        let ended = try dragRecord(record, of: source)
        XCTAssertEqual(ended["moved"] as? Bool, true, "a move performed is a move answered: \(ended); daemon log:\n\(daemon.log)")
    }

    func testADropTheGalleryCannotTakeFailsForTheApplicationAndAddsNothing() throws {
        try Data("not an image\n".utf8).write(to: URL(fileURLWithPath: sandbox.path("notes.txt")))
        let (source, record) = try startSource(sandbox.path("notes.txt"))
        let drop = try start("gallery", ["drop", "--desktop", "--file", sandbox.path("a.json")])
        XCTAssertNotNil(drop.waitForLine { $0.contains("waiting for a drop from the desktop") }, "\(drop.stderrLines)")
        try drag(from: "gtk drag source", to: "Pasteboard: drop zone [0-9]+")

        XCTAssertEqual(drop.waitForExit(), 1)
        XCTAssertNotNil(drop.stderrLines.first { $0.contains("offers no PNG image") }, "\(drop.stderrLines)")
        XCTAssertEqual(try dragRecord(record, of: source)["moved"] as? Bool, false)
        XCTAssertTrue(FileManager.default.fileExists(atPath: sandbox.path("notes.txt")))
    }

    /// A source that offers 3001 types and then never writes what is asked: the zone takes its
    /// PNG (the types past the bound are ignored), the gallery's load fails within the bridge's
    /// bounded wait with an error naming the type, and the bridge goes on bridging.
    func testASourceThatFloodsTypesAndNeverWritesFailsTheDropWithinTheBoundedWait() throws {
        let sway = try XCTUnwrap(sway)
        var environment = sandbox.environment()
        environment["XDG_RUNTIME_DIR"] = sway.runtimeDirectory
        let hostile = try start(DebianPython.path, [Self.fixture("hostile_wayland_peer.py"), sway.socketPath], environment: environment)
        XCTAssertTrue(eventually(timeout: 20) { hostile.stdoutText.hasPrefix("ready") }, "the hostile source did not start: \(hostile.stderrLines)")
        let drop = try start("gallery", ["drop", "--desktop", "--file", sandbox.path("a.json")])
        XCTAssertNotNil(drop.waitForLine { $0.contains("waiting for a drop from the desktop") }, "\(drop.stderrLines)")
        try drag(from: "hostile drag source", to: "Pasteboard: drop zone [0-9]+")

        XCTAssertTrue(eventually(timeout: 20) { hostile.stdoutText.contains("send image/png") }, "the zone never asked for the PNG: \(hostile.stdoutText); daemon log:\n\(daemon.log)")
        XCTAssertEqual(drop.waitForExit(timeout: 30), 1, "\(drop.stderrLines); daemon log:\n\(daemon.log)")
        XCTAssertNotNil(drop.stderrLines.first { $0.contains("image/png") && $0.contains("the application that dropped it neither wrote nor closed its pipe") },
                        "the failure names the type and says why: \(drop.stderrLines)")
        XCTAssertEqual(try titles(), [], "nothing half-read was added")
        XCTAssertTrue(try pbOK("bridge").stdoutText.contains("serves \(sway.socketPath)"), "the bridge went with the hostile source")
        XCTAssertTrue(eventually(timeout: 10) { !self.isShown("Pasteboard: drop zone [0-9]+") }, "the zone stayed after its destination gave up")
        hostile.stop()
    }
}

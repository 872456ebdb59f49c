import Foundation
import TestSupport
import XCTest

/// A real GTK 3 application (python3-gi) that copies and quits at once: the hand-over to the
/// bridge's clipboard manager may arrive before the bridge read the application's offer, and
/// the desktop must get the copy back every time, not only `pb paste`.
extension DesktopBridgeProcessTests {
    /// Whether Debian's python3 with GTK 3's introspection data is installed.
    static var gtkIsAvailable: Bool { DebianPython.runs("import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk") }

    func testAGtkApplicationThatCopiesAndQuitsLeavesItsCopyOnTheDesktopFiftyTimes() throws {
        guard Self.gtkIsAvailable else { throw XCTSkip("python3-gi with GTK 3 is not installed (apt-get install python3-gi gir1.2-gtk-3.0)") }
        let server = try startServer()
        try startDaemon(with: server)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/gtk_copy_and_quit.py").path
        let environment = sandbox.environment().merging(displayEnvironment(server)) { $1 }
        func desktopPaste() -> String? {
            guard let result = try? runTool("/usr/bin/xclip", ["-selection", "clipboard", "-o"], environment: environment, in: sandbox),
                  result.status == 0 else { return nil }
            return result.stdoutText
        }
        var lost: [Int] = []
        for round in 1...50 {
            let text = "copied in GTK, round \(round)"
            let copied = try runTool("/usr/bin/python3", [script, text], environment: environment, in: sandbox)
            XCTAssertEqual(copied.status, 0, "round \(round): \(copied.stderr)")
            XCTAssertTrue(eventually(timeout: 10) { self.pasted() == text }, "round \(round): pb paste gave \(String(describing: pasted()))")
            if !eventually(timeout: 10, { desktopPaste() == text }) { lost.append(round) }
        }
        XCTAssertEqual(lost, [], "the desktop clipboard lost the copy in these rounds; log:\n\(daemon.log)")
        let bridge = try pbOK("bridge").stdoutText
        XCTAssertTrue(bridge.contains("clipboard ⇄ general: owned by the pasteboard"), bridge)
    }
}

import Foundation
import Pasteboard
import TestSupport
import XCTest

/// The desktop sees the types apps declare when they connect, and their upgrades, as the
/// bridge follows the daemon's registry (`watch-types`): on X11 with xclip, on Wayland with
/// wl-clipboard, both ways.
extension DesktopBridgeProcessTests {
    func testTheX11DesktopSeesDeclaredTypesAndTheirUpgrades() async throws {
        let server = try startServer()
        try startDaemon(with: server)
        let bytes = Array(#"{"title":"groceries"}"#.utf8)
        try await declareNote(NoteType.v1, copying: bytes)
        let reader = sandbox.environment().merging(displayEnvironment(server)) { $1 }
        func xclip(_ arguments: String...) -> ProcessResult? {
            try? runTool("/usr/bin/xclip", ["-selection", "clipboard"] + arguments, environment: reader, in: sandbox)
        }
        func targets() -> [String] { xclip("-o", "-t", "TARGETS")?.stdoutText.split(separator: "\n").map(String.init) ?? [] }
        // Offered under the MIME type the app declared (application/octet-stream only on b08da6d).
        XCTAssertTrue(eventually(timeout: 10) { targets().contains("application/vnd.example.note+json") }, "\(targets()); log:\n\(daemon.log)")
        XCTAssertEqual(xclip("-o", "-t", "application/vnd.example.note+json")?.stdout, Data(bytes))

        // The app, upgraded, declares another MIME type: the selection is offered again under it.
        try await declareNote(NoteType.v2)
        XCTAssertTrue(eventually(timeout: 10) { targets().contains("application/vnd.example.note.v2+json") }, "\(targets()); log:\n\(daemon.log)")
        XCTAssertFalse(targets().contains("application/vnd.example.note+json"), "\(targets())")
        XCTAssertEqual(xclip("-o", "-t", "application/vnd.example.note.v2+json")?.stdout, Data(bytes))

        // A desktop application's copy under the declared MIME type comes in as the declared type.
        let file = sandbox.path("note.json")
        try Data(#"{"title":"from the desktop"}"#.utf8).write(to: URL(fileURLWithPath: file))
        let copier = try ToolProcess("/usr/bin/xclip", ["-selection", "clipboard", "-quiet", "-t", "application/vnd.example.note.v2+json", "-i", file], environment: reader, in: sandbox)
        peers.append(copier)
        XCTAssertTrue(eventually(timeout: 10) { (try? self.pb("list").stdoutText)?.contains("com.example.note  application/vnd.example.note.v2+json") == true },
                      "\(String(describing: try? pb("list").stdoutText)); log:\n\(daemon.log)")
        XCTAssertEqual(try pbOK("paste", "-t", "com.example.note").stdoutText, #"{"title":"from the desktop"}"#)
    }
}

import Foundation
import XCTest

/// Messages that cross to another process are written for a person: the dragging user reads
/// why a drop failed in words, naming the file they dragged, never a Swift value dump or the
/// temporary file the destination loaded it into.
final class MessagesAcrossProcessesTests: DragDropTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    func testAGalleryRefusingANonPNGTellsTheDraggingUserInWordsNamingTheirFile() throws {
        let photo = sandbox.path("holiday.jpg")
        try Data("\u{FF}\u{D8}\u{FF} not a png at all".utf8).write(to: URL(fileURLWithPath: photo))
        let (source, id) = try startPBDrag("-t", "public.png", photo)
        let drop = try gallery("drop", file: "b.json")
        XCTAssertEqual(drop.status, 1, drop.stderr)
        XCTAssertEqual(drop.stderr, "gallery: item 0 of drag session \(id): holiday.jpg is not a PNG image (gallery accepts only PNG)\n")

        let end = try outcome(of: source)
        XCTAssertEqual(end.stdout, "failed")
        let heard = source.stderrLines.joined(separator: "\n")
        XCTAssertTrue(heard.contains("pb: the drop failed: item 0 of drag session \(id): holiday.jpg is not a PNG image (gallery accepts only PNG)"), heard)
        for dump in ["CLIError(", "status:", "message:", "/pasteboard-"] {
            XCTAssertFalse(heard.contains(dump), "'\(dump)' in what the dragging user read: \(heard)")
        }
        XCTAssertEqual(try titles("b.json"), [], "nothing was added")
        XCTAssertEqual(files(in: "b.images"), [], "the refused file is not kept")
    }

    func testAPBDropThatCannotWriteTellsTheSourceInWords() throws {
        let (source, _) = try startPBDrag("--rep", "public.utf8-plain-text=hello")
        let drop = try pb("drop", "-o", sandbox.path("no-such-directory/out.txt"))
        XCTAssertEqual(drop.status, 1, drop.stderr)
        XCTAssertTrue(drop.stderr.hasPrefix("pb: cannot create \(sandbox.path("no-such-directory/out.txt"))"), drop.stderr)
        XCTAssertEqual(try outcome(of: source).stdout, "failed")
        let heard = source.stderrLines.joined(separator: "\n")
        XCTAssertTrue(heard.contains("pb: the drop failed: cannot create"), heard)
        XCTAssertFalse(heard.contains("CLIError("), heard)
    }
}

import Foundation
import Glibc
import XCTest

/// Every file pb and gallery create for the user gets the mode the umask gives (0666 less it),
/// as the shell's `>` or cp would: a photo dropped into ~/Pictures is as readable as one copied
/// there. The tools run under umask 027 (inherited from this process), which neither the
/// private 0600 nor a fixed 0644 would match.
final class FileModeTests: DragDropTestCase {
    private var savedMask: mode_t = 0

    override func setUpWithError() throws {
        try super.setUpWithError()
        savedMask = umask(0o027)
    }

    override func tearDown() {
        umask(savedMask)
        super.tearDown()
    }

    private func mode(_ path: String, line: UInt = #line) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try XCTUnwrap(attributes[.posixPermissions] as? Int, line: line)
    }

    func testPasteAndDropOutputsFollowTheUmask() throws {
        try pbOK("copy", stdin: Data("pasted".utf8))
        try pbOK("paste", "-o", sandbox.path("pasted.txt"))
        XCTAssertEqual(try mode(sandbox.path("pasted.txt")), 0o640)

        let (fileDrag, _) = try startPBDrag("--rep", "public.utf8-plain-text=one")
        try pbOK("drop", "-o", sandbox.path("dropped.txt"))
        XCTAssertEqual(try outcome(of: fileDrag).stdout, "copy")
        XCTAssertEqual(try mode(sandbox.path("dropped.txt")), 0o640)

        let pictures = sandbox.path("Pictures")
        try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: false)
        let png = try writePNG("photo.png", width: 4, height: 3)
        try Data("a note".utf8).write(to: URL(fileURLWithPath: sandbox.path("note.txt")))
        let (directoryDrag, _) = try startPBDrag(sandbox.path("photo.png"), sandbox.path("note.txt"))
        try pbOK("drop", "-o", pictures)
        XCTAssertEqual(try outcome(of: directoryDrag).stdout, "copy")
        XCTAssertEqual(files(in: "Pictures"), ["note.txt", "photo.png"])
        XCTAssertEqual(try mode(pictures + "/photo.png"), 0o640, "a dropped photo is not private")
        XCTAssertEqual(try mode(pictures + "/note.txt"), 0o640)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: pictures + "/photo.png")), png)
    }

    func testGalleryImagesAddedOrDroppedFollowTheUmask() throws {
        try addImages(["Sunset"])
        let (source, _) = try startGalleryDrag("0")
        try galleryOK("drop", file: "b.json")
        XCTAssertEqual(try outcome(of: source).stdout, "copy")
        for file in ["a.json", "b.json"] {
            let image = try XCTUnwrap(try images(file).first)
            let path = (sandbox.path(file) as NSString).deletingLastPathComponent + "/" + (image["file"] as? String ?? "?")
            XCTAssertEqual(try mode(path), 0o640, "\(file)'s image")
            XCTAssertEqual(try mode(sandbox.path(file)), 0o640, file)
        }
        XCTAssertEqual(try mode(sandbox.path("b.images")), 0o750)
    }
}

import Foundation
import GalleryModel
import XCTest

final class PlaceholderTests: GalleryTestCase {
    func testCommitLandsWherePlaceholderNowStands() throws {
        let ids = try addImages(["a", "b", "c"])
        let placeholder = try gallery.insertPlaceholder(title: "dropped", at: 1, loadingPID: getpid())
        XCTAssertEqual(try gallery.read().images[1].isPlaceholder, true)

        let otherProcess = GalleryFile(path: path("gallery.json"))
        try otherProcess.move(from: 0, to: 3)
        _ = try addImages(["x"], to: otherProcess)
        try otherProcess.moveImages(ids: [ids[1]], to: 0)
        XCTAssertEqual(try titles(), ["b", "dropped", "c", "a", "x"])

        let download = try write(Self.png(width: 30, height: 10), to: "download.tmp")
        let stored = try gallery.storeImage(movingFile: download)
        XCTAssertFalse(FileManager.default.fileExists(atPath: download))
        XCTAssertEqual(stored.aspectRatio, 3.0)
        let index = try gallery.commitPlaceholder(
            id: placeholder, with: GalleryImage(title: "dropped", source: "https://example.com/d.png",
                                                aspectRatio: stored.aspectRatio, file: stored.file))
        XCTAssertEqual(index, 1)
        let committed = try gallery.read().images[1]
        XCTAssertEqual(committed.id, placeholder)
        XCTAssertFalse(committed.isPlaceholder)
        XCTAssertNil(committed.loadingPID)
        XCTAssertEqual(contents(gallery.absolutePath(of: committed)!), Self.png(width: 30, height: 10))
    }

    func testCommitAfterPlaceholderWasRemovedThrowsNoSuchImage() throws {
        let placeholder = try gallery.insertPlaceholder(title: "p", at: nil, loadingPID: getpid())
        try GalleryFile(path: gallery.path).removePlaceholder(id: placeholder)
        try gallery.removePlaceholder(id: placeholder)
        XCTAssertThrowsError(try gallery.commitPlaceholder(id: placeholder, with: GalleryImage(title: "p"))) {
            XCTAssertEqual($0 as? GalleryError, .noSuchImage(id: placeholder))
        }
        XCTAssertEqual(try gallery.read().images, [])
    }

    func testStalePlaceholdersOfDeadProcessesAreRemoved() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        let deadPID = process.processIdentifier
        guard kill(deadPID, 0) != 0, errno == ESRCH else { throw XCTSkip("pid \(deadPID) was reused") }

        _ = try gallery.insertPlaceholder(title: "dead", at: nil, loadingPID: deadPID)
        _ = try gallery.insertPlaceholder(title: "alive", at: 0, loadingPID: getpid())
        XCTAssertEqual(try gallery.removeStalePlaceholders(), 1)
        XCTAssertEqual(try titles(), ["alive"])
        XCTAssertEqual(try gallery.removeStalePlaceholders(), 0)
    }
}

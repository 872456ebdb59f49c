import Foundation
import GalleryModel
import XCTest

final class EditingTests: GalleryTestCase {
    func testAddCopiesImageBesideGalleryAndRecordsAspectRatioAndSource() throws {
        let bytes = Self.png(width: 200, height: 100)
        let source = try write(bytes, to: "wide.png")
        let image = try gallery.add(imageAt: source, title: "Wide")
        XCTAssertEqual(image.aspectRatio, 2.0)
        XCTAssertEqual(image.source, source)
        XCTAssertEqual(image.file, "gallery.images/\(image.id).png")
        XCTAssertEqual(gallery.absolutePath(of: image), path("gallery.images/\(image.id).png"))
        XCTAssertEqual(contents(path("gallery.images/\(image.id).png")), bytes)
        XCTAssertEqual(try gallery.read().images, [image])
        let json = try XCTUnwrap(String(data: Data(contents(gallery.path) ?? []), encoding: .utf8))
        XCTAssertTrue(json.hasSuffix("}\n"))
        XCTAssertFalse(json.contains("placeholder"))
    }

    func testAddOfNonPNGWritesNothing() throws {
        let text = try write(Array("not an image".utf8), to: "photo.jpg")
        XCTAssertThrowsError(try gallery.add(imageAt: text, title: "x")) { XCTAssertEqual($0 as? GalleryError, .notPNG(text)) }
        XCTAssertNil(contents(gallery.path))
        _ = try addImages(["a"])
        let before = contents(gallery.path)
        XCTAssertThrowsError(try gallery.add(imageAt: text, title: "x"))
        XCTAssertEqual(contents(gallery.path), before)
    }

    func testMoveReordersAndValidatesIndices() throws {
        _ = try addImages(["a", "b", "c"])
        try gallery.move(from: 0, to: 2)
        XCTAssertEqual(try titles(), ["b", "c", "a"])
        XCTAssertThrowsError(try gallery.move(from: 7, to: 0)) { error in
            XCTAssertEqual(error as? GalleryError, .indexOutOfRange(index: 7, count: 3))
            XCTAssertEqual("\(error)", "index 7 is out of range: the gallery has 3 images (0–2)")
        }
    }

    func testMoveImagesDropsAtPositionBeforeTheMove() throws {
        let ids = try addImages(["a", "b", "c", "d", "e"])
        let original = try gallery.read()
        XCTAssertEqual(try gallery.moveImages(ids: [ids[0]], to: 3), 2)
        XCTAssertEqual(try titles(), ["b", "c", "a", "d", "e"])
        try gallery.update { $0 = original }
        XCTAssertEqual(try gallery.moveImages(ids: [ids[3], "missing", ids[1]], to: 0), 0)
        XCTAssertEqual(try titles(), ["d", "b", "a", "c", "e"])
        XCTAssertEqual(try gallery.moveImages(ids: [ids[0]], to: 99), 4)
        XCTAssertEqual(try titles(), ["d", "b", "c", "e", "a"])
    }

    func testRemoveDeletesImageFiles() throws {
        let ids = try addImages(["a", "b", "c"])
        let removed = try gallery.remove(ids: [ids[2], ids[0]])
        XCTAssertEqual(removed.map(\.title), ["a", "c"])
        XCTAssertEqual(try titles(), ["b"])
        for image in removed { XCTAssertFalse(FileManager.default.fileExists(atPath: gallery.absolutePath(of: image)!)) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("gallery.images/\(ids[1]).png")))
    }

    func testCorruptJSONIsReportedAndNeverOverwritten() throws {
        let garbage = Array("{ this is not json".utf8)
        try write(garbage, to: "gallery.json")
        XCTAssertThrowsError(try gallery.read()) { error in
            guard case .corrupt(gallery.path, _)? = error as? GalleryError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try gallery.update { $0.images.append(GalleryImage(title: "x")) })
        XCTAssertEqual(contents(gallery.path), garbage)
        try write(Array(#"{"version": 2, "images": []}"#.utf8), to: "gallery.json")
        XCTAssertThrowsError(try gallery.read()) { XCTAssertTrue("\($0)".contains("version 2 is not supported"), "\($0)") }
    }

    func testConcurrentUpdatesLoseNothing() throws {
        let file = gallery
        let failures = NSLock()
        nonisolated(unsafe) var errors: [any Error] = []
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for index in 0..<100 {
                do {
                    try GalleryFile(path: file.path).update { $0.images.append(GalleryImage(title: "\(worker)-\(index)")) }
                } catch {
                    failures.withLock { errors.append(error) }
                }
            }
        }
        XCTAssertTrue(errors.isEmpty, "\(errors)")
        XCTAssertEqual(Set(try titles()), Set((0..<2).flatMap { w in (0..<100).map { "\(w)-\($0)" } }))
    }
}

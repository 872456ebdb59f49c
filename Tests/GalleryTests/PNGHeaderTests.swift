import GalleryModel
import XCTest

final class PNGHeaderTests: GalleryTestCase {
    func testMinimalPNGHeaderGivesSizeAndAspectRatio() throws {
        let header = try PNGHeader(bytes: Self.png(width: 200, height: 100))
        XCTAssertEqual(header, try PNGHeader.read(path: write(Self.png(width: 200, height: 100), to: "a.png")))
        XCTAssertEqual([header.width, header.height], [200, 100])
        XCTAssertEqual(header.aspectRatio, 2.0)
    }

    func testJPEGAndTextFilesAreRefusedNamingTheFile() throws {
        for (name, bytes) in [("photo.jpg", [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 40)),
                              ("notes.txt", Array(String(repeating: "hello ", count: 10).utf8))] {
            let file = try write(bytes, to: name)
            XCTAssertThrowsError(try PNGHeader.read(path: file)) { error in
                XCTAssertEqual(error as? GalleryError, .notPNG(file))
                XCTAssertEqual("\(error)", "\(file) is not a PNG image (gallery accepts only PNG)")
            }
        }
    }

    func testTruncatedOrZeroSizedPNGIsRefused() throws {
        let truncated = try write(Array(Self.png(width: 2, height: 2).prefix(20)), to: "cut.png")
        XCTAssertThrowsError(try PNGHeader.read(path: truncated)) { XCTAssertEqual($0 as? GalleryError, .notPNG(truncated)) }
        XCTAssertThrowsError(try PNGHeader(bytes: Self.png(width: 0, height: 5)))
    }

    func testMissingFileIsUnreadableWithSystemReason() {
        XCTAssertThrowsError(try PNGHeader.read(path: path("nope.png"))) { error in
            XCTAssertEqual(error as? GalleryError, .unreadable(path: path("nope.png"), reason: "No such file or directory"))
        }
    }
}

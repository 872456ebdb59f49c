@testable import PasteboardDesktop
import XCTest

/// The drawing the drag handle and the drop zone need (issue 42): text in the embedded font,
/// rectangles and previews, all clipped to the canvas.
final class CanvasTests: XCTestCase {
    private let white: UInt32 = 0xffff_ffff, black: UInt32 = 0xff00_0000

    /// The canvas as rows of `#` and `.`, for comparing a drawing with what a reader sees.
    private func picture(_ canvas: Canvas, _ rect: PixelRect) -> [String] {
        (rect.y..<(rect.y + rect.height)).map { y in
            String((rect.x..<(rect.x + rect.width)).map { canvas.pixel(x: $0, y: y) == black ? "#" : "." })
        }
    }

    func testTextIsDrawnInTheEmbeddedFontAtItsCells() {
        var canvas = Canvas(width: 20, height: 15, background: white)
        let width = canvas.draw(text: "Hi", x: 1, y: 1, color: black)
        XCTAssertEqual(width, 12)
        XCTAssertEqual(picture(canvas, PixelRect(x: 1, y: 3, width: 12, height: 9)), [
            "#...#.......",
            "#...#...#...",
            "#...#.......",
            "#...#..##...",
            "#####...#...",
            "#...#...#...",
            "#...#...#...",
            "#...#...#...",
            "#...#..###..",
        ])
    }

    func testLongTitlesEndInDotsWithinTheirWidthAndControlCharactersAreSpaces() {
        XCTAssertEqual(String(Canvas.fitting("sunset over the bay.png", maxWidth: 60)), "sunset ...")
        XCTAssertEqual(String(Canvas.fitting("a\nb\tc", maxWidth: 600)), "a b c")
        XCTAssertEqual(String(Canvas.fitting("photo", maxWidth: 600)), "photo")
        XCTAssertEqual(String(Canvas.fitting("photo", maxWidth: 12)), "..")
        XCTAssertFalse(FixedFont.hasGlyph("漢"))
        XCTAssertEqual(FixedFont.rows(of: "漢"), FixedFont.rows(of: "?"), "a character the font lacks is drawn as ?")
        XCTAssertTrue(FixedFont.hasGlyph("é"), "Latin-1 is in the font")
    }

    func testDrawingOffTheCanvasIsClippedNotACrash() {
        var canvas = Canvas(width: 8, height: 8, background: white)
        canvas.fill(PixelRect(x: -100, y: 6, width: Int.max, height: 100), with: black)
        canvas.draw(text: String(repeating: "W", count: 1000), x: -3, y: -5, color: black)
        canvas.outline(PixelRect(x: 5, y: 5, width: 100, height: 100), with: black)
        XCTAssertEqual(canvas.pixels.count, 64)
        XCTAssertEqual(canvas.pixel(x: 0, y: 7), black)
        XCTAssertNil(canvas.pixel(x: 8, y: 0))
        let huge = Canvas(width: 1 << 40, height: -5, background: white)
        XCTAssertEqual([huge.width, huge.height], [Canvas.largestSide, 1], "sizes are clamped before anything is allocated")
    }

    func testAPreviewIsScaledToFitKeepingItsAspectAndBlendedByAlpha() throws {
        // A 4 × 2 image, left half opaque red, right half transparent.
        var bytes: [UInt8] = []
        for _ in 0..<2 { for x in 0..<4 { bytes += x < 2 ? [255, 0, 0, 255] : [0, 0, 255, 0] } }
        let image = try XCTUnwrap(RGBAImage(width: 4, height: 2, bytes: bytes))
        var canvas = Canvas(width: 8, height: 8, background: white)
        canvas.draw(image: image, in: canvas.bounds)
        // Scaled to 8 × 4, centred: rows 2–5.
        XCTAssertEqual(canvas.pixel(x: 0, y: 2), 0xffff_0000)
        XCTAssertEqual(canvas.pixel(x: 3, y: 5), 0xffff_0000)
        XCTAssertEqual(canvas.pixel(x: 4, y: 2), white, "a transparent pixel leaves what is under it")
        XCTAssertEqual(canvas.pixel(x: 0, y: 1), white, "above the centred image nothing is drawn")
        XCTAssertNil(RGBAImage(width: 3, height: 3, bytes: [0]), "bytes that do not match the size are refused")
        XCTAssertNil(RGBAImage(width: 100_000, height: 1, bytes: []))
    }

    func testTheBytesAreLittleEndianARGB() {
        let canvas = Canvas(width: 1, height: 1, background: 0x8011_2233)
        XCTAssertEqual(canvas.littleEndianBytes, [0x33, 0x22, 0x11, 0x80])
    }
}

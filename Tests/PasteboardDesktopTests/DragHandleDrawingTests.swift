@testable import PasteboardDesktop
import XCTest

/// The drag handle's picture: its items' previews and titles and the count, within bounds.
final class DragHandleDrawingTests: XCTestCase {
    func testTheHandleListsItsItemsWithPreviewsAndTheCount() throws {
        let red = try XCTUnwrap(RGBAImage(width: 2, height: 2, bytes: Array(repeating: [255, 0, 0, 255], count: 4).flatMap { $0 }))
        let drawing = DragHandleDrawing(
            items: [.init(title: "sunset.png", preview: red), .init(title: "notes.txt")],
            caption: DragHandleDrawing.caption(count: 2, allowsMove: true))
        XCTAssertEqual(drawing.caption, "2 items: drag to copy or move, Esc cancels")
        let canvas = drawing.draw()
        XCTAssertEqual([canvas.width, canvas.height], [drawing.size.width, drawing.size.height])
        XCTAssertEqual(canvas.pixel(x: 0, y: 0), DragHandleDrawing.frame, "a frame around it")
        // The first row's preview box holds the red image; the second's is empty.
        XCTAssertEqual(canvas.pixel(x: 7 + 16, y: 7 + 2 + 16), 0xffff_0000)
        XCTAssertEqual(canvas.pixel(x: 7 + 16, y: 7 + 36 + 2 + 16), DragHandleDrawing.previewBackground)
        // Text was drawn in the title column of both rows.
        let titleColumn = 1 + 6 + 32 + 6
        for rowTop in [7, 7 + 36] {
            let inked = (rowTop..<(rowTop + 36)).contains { y in
                (titleColumn..<(titleColumn + 60)).contains { canvas.pixel(x: $0, y: y) == DragHandleDrawing.text }
            }
            XCTAssertTrue(inked, "a title at row \(rowTop)")
        }
    }

    func testManyItemsAndLongTitlesStayWithinTheHandlesBounds() {
        let items = (0..<50).map { DragHandleDrawing.Item(title: "an extremely long file name number \($0) that goes on and on.png") }
        let drawing = DragHandleDrawing(items: items, caption: DragHandleDrawing.caption(count: 50, allowsMove: false))
        let size = drawing.size
        XCTAssertLessThanOrEqual(size.width, DragHandleDrawing.maximumWidth)
        XCTAssertEqual(size.height, 2 * 6 + 2 + DragHandleDrawing.visibleItems * 36 + FixedFont.height + 6, "four rows, then the count")
        XCTAssertEqual(drawing.draw().pixels.count, size.width * size.height)
        XCTAssertEqual(DragHandleDrawing.caption(count: 1, allowsMove: false), "1 item: drag to copy, Esc cancels")
    }
}

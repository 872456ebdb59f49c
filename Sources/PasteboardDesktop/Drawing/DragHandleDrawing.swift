/// What the drag handle shows (issue 42): a small window near the pointer listing the drag
/// session's items — each with a preview when it is an image and its title — and their count,
/// drawn on a `Canvas` for either display protocol. The same drawing serves the drop zone,
/// whose one line says what to drop there.
public struct DragHandleDrawing: Sendable {
    /// One item as the handle lists it.
    public struct Item: Sendable, Equatable {
        /// Its title: the suggested name, else the start of its text, else its type.
        public var title: String
        /// A decoded preview, for an image.
        public var preview: RGBAImage?

        public init(title: String, preview: RGBAImage? = nil) {
            self.title = title
            self.preview = preview
        }
    }

    /// The colours: a light panel with a dark frame, so it reads on any desktop.
    public static let background: UInt32 = 0xfff4_f1ea
    public static let frame: UInt32 = 0xff3a_3a3a
    public static let text: UInt32 = 0xff1a_1a1a
    public static let muted: UInt32 = 0xff6b_6b6b
    public static let previewBackground: UInt32 = 0xffdd_d8cc

    /// The most rows listed; more items are summed up in the count line.
    public static let visibleItems = 4
    /// The widest the handle grows to (titles are cut with dots beyond it).
    public static let maximumWidth = 320
    static let padding = 6
    static let previewSide = 32
    static let rowHeight = previewSide + 4

    public let items: [Item]
    /// The line under the items ("3 items — drag to copy, Esc cancels").
    public let caption: String

    public init(items: [Item], caption: String) {
        self.items = items
        self.caption = caption
    }

    /// The handle's size in pixels.
    public var size: (width: Int, height: Int) {
        let rows = min(items.count, Self.visibleItems)
        let textColumns = ([caption] + items.prefix(rows).map(\.title)).map(\.count).max() ?? 0
        let contentWidth = max(Self.previewSide + Self.padding + textColumns * FixedFont.width, caption.count * FixedFont.width)
        let width = min(Self.maximumWidth, contentWidth + 2 * Self.padding + 2)
        let height = 2 * Self.padding + 2 + rows * Self.rowHeight + FixedFont.height + (rows > 0 ? Self.padding : 0)
        return (max(width, 4 * FixedFont.width + 2 * Self.padding), height)
    }

    /// The handle drawn.
    public func draw() -> Canvas {
        let (width, height) = size
        var canvas = Canvas(width: width, height: height, background: Self.background)
        canvas.outline(canvas.bounds, with: Self.frame)
        let textLeft = 1 + Self.padding + Self.previewSide + Self.padding
        let textWidth = width - textLeft - Self.padding - 1
        var top = 1 + Self.padding
        for item in items.prefix(Self.visibleItems) {
            let box = PixelRect(x: 1 + Self.padding, y: top + 2, width: Self.previewSide, height: Self.previewSide)
            canvas.fill(box, with: Self.previewBackground)
            if let preview = item.preview { canvas.draw(image: preview, in: box) }
            canvas.draw(text: item.title, x: textLeft, y: top + (Self.rowHeight - FixedFont.height) / 2, color: Self.text, maxWidth: textWidth)
            top += Self.rowHeight
        }
        if !items.isEmpty { top += Self.padding }
        canvas.draw(text: caption, x: 1 + Self.padding, y: top, color: Self.muted, maxWidth: width - 2 * Self.padding - 2)
        return canvas
    }

    /// The caption for `count` items: what a drag offers and how to leave it.
    public static func caption(count: Int, allowsMove: Bool) -> String {
        let items = count == 1 ? "1 item" : "\(count) items"
        return "\(items): drag to \(allowsMove ? "copy or move" : "copy"), Esc cancels"
    }
}

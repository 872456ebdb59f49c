/// A rectangle of pixels on a `Canvas`: its top-left corner and size (a size of 0 is empty).
public struct PixelRect: Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The part of this rectangle inside `bounds` (empty when they do not meet).
    public func clipped(to bounds: PixelRect) -> PixelRect {
        let left = max(x, bounds.x), top = max(y, bounds.y)
        let right = min(x.addingReportingOverflow(width).partialValue, bounds.x + bounds.width)
        let bottom = min(y.addingReportingOverflow(height).partialValue, bounds.y + bounds.height)
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    public var isEmpty: Bool { width == 0 || height == 0 }
}

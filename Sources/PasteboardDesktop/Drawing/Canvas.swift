/// The pixels of a small window the bridge draws itself (a drag handle, a drop zone): 32-bit
/// 0xAARRGGBB, row after row, which is what both display protocols take once written little
/// endian (`littleEndianBytes`): Wayland's `wl_shm` ARGB8888 and an X11 ZPixmap of depth 24
/// on a 32-bit-per-pixel visual. Drawing is clipped to the canvas: no coordinate can reach
/// outside it.
public struct Canvas: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// 0xAARRGGBB, `width` per row.
    public internal(set) var pixels: [UInt32]

    /// The largest side a canvas has: a handle or a zone is a few hundred pixels; 4096 bounds
    /// its memory (64 MiB) whatever a caller computes.
    public static let largestSide = 4096

    /// A canvas of `width` × `height` (each clamped to 1...`largestSide`) filled with `background`.
    public init(width: Int, height: Int, background: UInt32) {
        self.width = min(max(width, 1), Self.largestSide)
        self.height = min(max(height, 1), Self.largestSide)
        pixels = Array(repeating: background, count: self.width * self.height)
    }

    /// The whole canvas.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// The pixel at (`x`, `y`); nil outside the canvas.
    public func pixel(x: Int, y: Int) -> UInt32? {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return nil }
        return pixels[y * width + x]
    }

    /// Sets the pixel at (`x`, `y`) when it is on the canvas.
    public mutating func set(x: Int, y: Int, to color: UInt32) {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return }
        pixels[y * width + x] = color
    }

    /// Fills the part of `rect` on the canvas with `color`.
    public mutating func fill(_ rect: PixelRect, with color: UInt32) {
        let area = rect.clipped(to: bounds)
        guard !area.isEmpty else { return }
        for row in area.y..<(area.y + area.height) {
            let start = row * width + area.x
            pixels.replaceSubrange(start..<(start + area.width), with: repeatElement(color, count: area.width))
        }
    }

    /// A one-pixel outline of `rect` in `color`.
    public mutating func outline(_ rect: PixelRect, with color: UInt32) {
        guard !rect.isEmpty else { return }
        fill(PixelRect(x: rect.x, y: rect.y, width: rect.width, height: 1), with: color)
        fill(PixelRect(x: rect.x, y: rect.y + rect.height - 1, width: rect.width, height: 1), with: color)
        fill(PixelRect(x: rect.x, y: rect.y, width: 1, height: rect.height), with: color)
        fill(PixelRect(x: rect.x + rect.width - 1, y: rect.y, width: 1, height: rect.height), with: color)
    }

    /// The pixels as bytes, each pixel little endian (B, G, R, A): a `wl_shm` buffer's
    /// ARGB8888, an X11 PutImage's ZPixmap data on a 32-bit little-endian visual.
    public var littleEndianBytes: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: pixels.count * 4)
        for (index, pixel) in pixels.enumerated() {
            bytes[index * 4] = UInt8(truncatingIfNeeded: pixel)
            bytes[index * 4 + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
            bytes[index * 4 + 2] = UInt8(truncatingIfNeeded: pixel >> 16)
            bytes[index * 4 + 3] = UInt8(truncatingIfNeeded: pixel >> 24)
        }
        return bytes
    }
}

extension Canvas {
    /// Draws `image` scaled to fit `rect` (its aspect kept, centred; nearest pixel), blended
    /// over what is there by its alpha.
    public mutating func draw(image: RGBAImage, in rect: PixelRect) {
        guard !rect.isEmpty else { return }
        // The scale is the smaller of the two ratios: whole numbers of pixels, no overflow
        // (sides are at most 8192 and 4096).
        let scaledWidth: Int, scaledHeight: Int
        if image.width * rect.height > image.height * rect.width {
            scaledWidth = rect.width
            scaledHeight = max(1, image.height * rect.width / image.width)
        } else {
            scaledHeight = rect.height
            scaledWidth = max(1, image.width * rect.height / image.height)
        }
        let left = rect.x + (rect.width - scaledWidth) / 2, top = rect.y + (rect.height - scaledHeight) / 2
        let area = PixelRect(x: left, y: top, width: scaledWidth, height: scaledHeight).clipped(to: bounds)
        guard !area.isEmpty else { return }
        for y in area.y..<(area.y + area.height) {
            let sourceY = (y - top) * image.height / scaledHeight
            for x in area.x..<(area.x + area.width) {
                let sourceX = (x - left) * image.width / scaledWidth
                let offset = (sourceY * image.width + sourceX) * 4
                let alpha = UInt32(image.bytes[offset + 3])
                guard alpha > 0 else { continue }
                let under = pixels[y * width + x]
                func blend(_ over: UInt8, _ shift: UInt32) -> UInt32 {
                    let below = (under >> shift) & 0xff
                    return ((UInt32(over) * alpha + below * (255 - alpha)) / 255) << shift
                }
                pixels[y * width + x] = 0xff00_0000 | blend(image.bytes[offset], 16) | blend(image.bytes[offset + 1], 8) | blend(image.bytes[offset + 2], 0)
            }
        }
    }
}

/// An image to draw as a preview: 8-bit red, green, blue and alpha per pixel, row after row
/// (what a PNG decodes to). Its size is bounded, since the pixels may come from a file a drag
/// carries: 8192 × 8192 at most.
public struct RGBAImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// 4 bytes per pixel, `width` pixels per row.
    public let bytes: [UInt8]

    public static let largestSide = 8192

    /// An image of `width` × `height` with `bytes`; nil when the sizes are out of bounds or the
    /// bytes are not `width × height × 4`.
    public init?(width: Int, height: Int, bytes: [UInt8]) {
        guard (1...Self.largestSide).contains(width), (1...Self.largestSide).contains(height), bytes.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        self.bytes = bytes
    }
}
